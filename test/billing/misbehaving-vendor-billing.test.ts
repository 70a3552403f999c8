import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import { postRawJson } from '../helpers/start-test-gateway.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

// What misbehaving vendors cost the client (issue 37): an answer the gateway refused (502) costs nothing, and a large
// embeddings answer streamed through is billed by the usage at its end, as when it is read whole.

const largeEmbeddingsModel = 'misbehaving-large-embeddings';
const noChoicesModel = 'misbehaving-no-choices';
const redirectModel = 'misbehaving-redirect';
/** The input tokens the large answer's usage reports: the bill must be exactly this (one micro-unit per token). */
const reportedPromptTokens = 4321;

function largeEmbeddingsAnswer(): string {
  const item = JSON.stringify({
    object: 'embedding',
    index: 0,
    embedding: Array.from({ length: 256 }, (_, index) => index / 1000),
  });
  const items = Array.from({ length: Math.ceil((2 * 1024 * 1024) / item.length) }, () => item);
  return `{"object":"list","data":[${items.join(',')}],"model":"e","usage":{"prompt_tokens":${reportedPromptTokens},"total_tokens":${reportedPromptTokens}}}`;
}

let vendor: Server;
let gateway: BillingTestGateway;

beforeAll(async () => {
  const large = largeEmbeddingsAnswer();
  vendor = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url?.endsWith('/embeddings')) {
        // Chunked, no Content-Length: the gateway streams it through.
        response.writeHead(200, { 'content-type': 'application/json' });
        for (let offset = 0; offset < large.length; offset += 64 * 1024)
          response.write(large.slice(offset, offset + 64 * 1024));
        response.end();
      } else if (request.url?.includes('redirect')) {
        response.writeHead(302, { location: 'https://elsewhere.example/', 'content-type': 'text/html' });
        response.end('<html>Moved</html>');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            usage: { prompt_tokens: 900, completion_tokens: 900, total_tokens: 1800 },
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  const vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
  const models = [largeEmbeddingsModel, noChoicesModel, redirectModel];
  // The simulator serves none of these models: only the misbehaving vendor's channels do.
  gateway = await startBillingTestGateway({ models: ['misbehaving-unused'], prices: models.map(createUnitPrice) });
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: `${vendorUrl}/v1`,
    secret: 'sk-misbehaving-0123456789',
    models: { [largeEmbeddingsModel]: 'e', [noChoicesModel]: 'c' },
  });
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: `${vendorUrl}/redirect/v1`,
    secret: 'sk-misbehaving-0123456789',
    models: { [redirectModel]: 'r' },
  });
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => vendor?.close(resolve));
});

async function billedUser(): Promise<{ user: UserRecord; secret: string }> {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, 10_000_000);
  return { user, secret: key.secret };
}

async function charged(userId: string): Promise<number> {
  await gateway.running.billing.writer.flush();
  const balance = await gateway.running.billing.store.readBalance(userId);
  expect(balance).toBeTypeOf('number');
  return 10_000_000 - (balance ?? 0);
}

describe('billing of misbehaving vendor answers', () => {
  it('bills a large embeddings answer streamed through by the usage at its end', async () => {
    const { user, secret } = await billedUser();
    const response = await postRawJson(gateway, secret, '/v1/embeddings', {
      model: largeEmbeddingsModel,
      input: 'hello',
    });
    expect(response.status).toBe(200);
    expect(await charged(user.id)).toBe(reportedPromptTokens);
  });

  it.each([noChoicesModel, redirectModel])(
    'charges nothing for an answer the gateway refused with 502 (%s)',
    async (model) => {
      const { user, secret } = await billedUser();
      const response = await postRawJson(gateway, secret, '/v1/chat/completions', {
        model,
        messages: [{ role: 'user', content: 'hello' }],
      });
      expect(response.status).toBe(502);
      expect(await charged(user.id)).toBe(0);
    },
  );
});
