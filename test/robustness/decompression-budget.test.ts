// Deflate bombs cost nothing before admission and at most one budget after it. A key without balance that sends
// PDFs full of deflate bombs is refused (429 insufficient_quota) without a byte being inflated, on chat and on the
// free Messages count_tokens; an admitted request inflates at most GATEWAY_DECOMPRESSION_BUDGET_BYTES in all, with
// zlib's asynchronous API (the thread pool), never its synchronous one. Proven by counting zlib's calls and output.
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { postRawJson, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const inflation = vi.hoisted(() => ({ asyncCalls: 0, asyncOutputBytes: 0, syncCalls: 0 }));

vi.mock('node:zlib', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:zlib')>();
  return {
    ...actual,
    inflate: (
      buffer: zlib.InputType,
      options: zlib.ZlibOptions,
      callback: (error: Error | null, result: Buffer) => void,
    ) => {
      inflation.asyncCalls += 1;
      actual.inflate(buffer, options, (error, result) => {
        if (!error) inflation.asyncOutputBytes += result.length;
        callback(error, result);
      });
    },
    inflateSync: (buffer: zlib.InputType, options?: zlib.ZlibOptions) => {
      inflation.syncCalls += 1;
      return actual.inflateSync(buffer, options);
    },
  };
});

const upstreamSecret = 'sk-upstream-bombs';
const budgetBytes = 1024 * 1024;

/** A PDF whose one object stream inflates to 8 MiB of zeros (about 8 KB compressed). */
function createDeflateBombPdf(): Buffer {
  const stream = zlib.deflateSync(Buffer.alloc(8 * 1024 * 1024));
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 0 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`,
    ),
    stream,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< >>\n%%EOF\n'),
  ]);
}

const bombData = `data:application/pdf;base64,${createDeflateBombPdf().toString('base64')}`;
const chatWithBombs = {
  model: 'gpt-4o',
  max_tokens: 16,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'read these' },
        ...Array.from({ length: 5 }, (_, index) => ({
          type: 'file',
          file: { filename: `bomb${index}.pdf`, file_data: bombData },
        })),
      ],
    },
  ],
};
const countTokensWithBombs = {
  model: 'gpt-4o',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'read these' },
        ...Array.from({ length: 5 }, () => ({
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: bombData.slice(bombData.indexOf(',') + 1) },
        })),
      ],
    },
  ],
};

describe('decompression is bounded and comes after admission', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
    gateway = await startTestGateway({ billing: { enabled: true }, config: { decompressionBudgetBytes: budgetBytes } });
    await gateway.createChannel({ baseUrl: simulator.url, secret: upstreamSecret, models: ['gpt-4o'] });
  });

  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  beforeEach(() => {
    inflation.asyncCalls = 0;
    inflation.asyncOutputBytes = 0;
    inflation.syncCalls = 0;
  });

  async function createKey(balance: number): Promise<string> {
    const { billing } = gateway.running;
    const user = await gateway.createUser();
    const key = await gateway.createKey({ user });
    if (balance > 0)
      await billing.changeBalance({ userId: user.id, kind: 'top-up', amount: balance, description: 'test' });
    await billing.refresh(true);
    return key.secret;
  }

  it('sends a body small enough to be read before admission (under the 64 KiB early-check threshold)', () => {
    expect(Buffer.byteLength(JSON.stringify(chatWithBombs))).toBeLessThan(64 * 1024);
  });

  it('refuses a chat request with five deflate bombs from a key without balance, inflating nothing', async () => {
    const answer = await postRawJson(gateway, await createKey(0), '/v1/chat/completions', chatWithBombs);
    expect(answer.status).toBe(429);
    expect(answer.json()).toMatchObject({ error: { code: 'insufficient_quota' } });
    expect(inflation).toEqual({ asyncCalls: 0, asyncOutputBytes: 0, syncCalls: 0 });
  });

  it('refuses count_tokens with deflate bombs from a key without balance, inflating nothing', async () => {
    const answer = await postRawJson(gateway, await createKey(0), '/v1/messages/count_tokens', countTokensWithBombs);
    expect(answer.status).toBe(429);
    expect(inflation).toEqual({ asyncCalls: 0, asyncOutputBytes: 0, syncCalls: 0 });
  });

  it('inflates at most the budget for a whole admitted request, asynchronously, and still answers it', async () => {
    const answer = await postRawJson(
      gateway,
      await createKey(1_000_000_000_000),
      '/v1/chat/completions',
      chatWithBombs,
    );
    expect(answer.status, answer.text).toBeLessThan(500);
    expect(inflation.syncCalls).toBe(0);
    // The first bomb runs into the budget and spends it; the four others are not inflated at all.
    expect(inflation.asyncCalls).toBe(1);
    expect(inflation.asyncOutputBytes).toBeLessThanOrEqual(budgetBytes);
  });

  it('counts tokens for an admitted key within the same budget', async () => {
    const answer = await postRawJson(
      gateway,
      await createKey(1_000_000_000_000),
      '/v1/messages/count_tokens',
      countTokensWithBombs,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(inflation.syncCalls).toBe(0);
    expect(inflation.asyncCalls).toBe(1);
    expect(inflation.asyncOutputBytes).toBeLessThanOrEqual(budgetBytes);
  });
});
