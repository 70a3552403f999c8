// Holds count what large parts and extra generations can cost, so a tiny balance cannot fund many large requests:
// they are refused at admission (429, no upstream call) instead of running and leaving the operator to pay.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPageTokens } from '../../src/core/token-estimates/estimate-media-part-tokens.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';
import { createPdfFilePart, createTestPdf } from './create-test-pdf.js';

// Unknown to the catalog, so it may take files and images.
const model = 'media-model';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

/** A user with a key and `balance` micro-units (one micro-unit per token at the unit price). */
async function payingClient(balance: number): Promise<{ client: OpenAI; userId: string }> {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, balance);
  return { client: gateway.client(key.secret), userId: user.id };
}

async function statusesOf(requests: Array<Promise<unknown>>): Promise<Array<number | undefined>> {
  const settled = await Promise.allSettled(requests);
  return settled.map((outcome) =>
    outcome.status === 'fulfilled' ? 200 : (outcome.reason as InstanceType<typeof OpenAI.APIError>).status,
  );
}

describe('holds of large requests', () => {
  it('refuses many concurrent large-PDF requests from a tiny balance at admission', async () => {
    // 50 pages hold 230,000 tokens; the balance covers 100,000 (it covered 90 of these requests when a file counted 1,000).
    const { client, userId } = await payingClient(100_000);
    const pdf = createPdfFilePart(createTestPdf({ pages: 50, paddingBytes: 200_000 }));
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'summarise' }, pdf] },
    ] as unknown as OpenAI.Chat.ChatCompletionMessageParam[];
    gateway.simulator.reset();
    const statuses = await statusesOf(
      Array.from({ length: 20 }, () => client.chat.completions.create({ model, messages, max_tokens: 10 })),
    );
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 429));
    expect(gateway.simulator.requests).toHaveLength(0);
    await settleEverything([gateway.running], userId);
    expect(await gateway.running.billing.store.readBalance(userId)).toBe(100_000);
  });

  it('admits a PDF request the balance can hold by its pages, and refuses one page more than it holds', async () => {
    // 10 pages hold 46,000 tokens (plus text and output): 46,100 micro-units cover it, 11 pages (50,600) no longer fit.
    const { client } = await payingClient(46_100);
    const ask = (pages: number) =>
      client.chat.completions.create({
        model,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'summarise' }, createPdfFilePart(createTestPdf({ pages }))] },
        ] as unknown as OpenAI.Chat.ChatCompletionMessageParam[],
        max_tokens: 10,
      });
    await expect(ask(11)).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    await expect(ask(10)).resolves.toBeDefined();
    expect(10 * pdfPageTokens).toBeLessThan(46_100);
  });

  it('refuses concurrent large inline images from a tiny balance at admission', async () => {
    // 6 MiB of image data holds 6,292 tokens; the balance covers 5,000.
    const { client } = await payingClient(5_000);
    const image = `data:image/png;base64,${Buffer.alloc(6 * 1024 * 1024, 7).toString('base64')}`;
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: image } },
        ],
      },
    ] as OpenAI.Chat.ChatCompletionMessageParam[];
    gateway.simulator.reset();
    const statuses = await statusesOf(
      Array.from({ length: 4 }, () => client.chat.completions.create({ model, messages, max_tokens: 10 })),
    );
    expect(statuses).toEqual([429, 429, 429, 429]);
    expect(gateway.simulator.requests).toHaveLength(0);
  });

  it('holds n choices and best_of candidates', async () => {
    const { client } = await payingClient(300);
    gateway.simulator.reset();
    // One completion of at most 100 tokens fits; four do not.
    await expect(client.completions.create({ model, prompt: 'hi', max_tokens: 100 })).resolves.toBeDefined();
    await expect(client.completions.create({ model, prompt: 'hi', max_tokens: 100, best_of: 4 })).rejects.toMatchObject(
      { status: 429, code: 'insufficient_quota' },
    );
    await expect(client.completions.create({ model, prompt: 'hi', max_tokens: 100, n: 4 })).rejects.toMatchObject({
      status: 429,
    });
    await expect(
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, n: 4 }),
    ).rejects.toMatchObject({ status: 429 });
    expect(gateway.simulator.requests).toHaveLength(1);
  });
});
