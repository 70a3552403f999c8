// Messages count_tokens is free, not unbounded: it needs a balance as every paid endpoint does (429
// insufficient_quota, refused before its body is read), counts as a request of the key's rate limits (429
// rate_limit_exceeded once they are used up), and has its own body cap (413 beyond
// GATEWAY_COUNT_TOKENS_BODY_LIMIT_BYTES).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLimits } from '../../src/storage/billing-records.js';
import { postRawJson, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const upstreamSecret = 'sk-upstream-count-tokens';
const noLimits: RequestLimits = { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null };
const bodyLimitBytes = 4 * 1024;
const countTokensBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'How many tokens is this?' }] };

describe('count_tokens admission', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
    gateway = await startTestGateway({
      billing: { enabled: true },
      config: { countTokensBodyLimitBytes: bodyLimitBytes },
    });
    await gateway.createChannel({ baseUrl: simulator.url, secret: upstreamSecret, models: ['gpt-4o'] });
  });

  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  async function createKey(balance: number, limits: RequestLimits = noLimits): Promise<string> {
    const { billing } = gateway.running;
    const user = await gateway.createUser();
    const key = await gateway.createKey({ user });
    if (balance > 0)
      await billing.changeBalance({ userId: user.id, kind: 'top-up', amount: balance, description: 'test' });
    await billing.exclusive(() =>
      billing.store.setApiKeyBilling(key.record.id, { spendingCap: null, allowedIps: [], limits }),
    );
    await billing.refresh(true);
    return key.secret;
  }

  it('counts for a key with balance', async () => {
    const answer = await postRawJson(
      gateway,
      await createKey(1_000_000_000),
      '/v1/messages/count_tokens',
      countTokensBody,
    );
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ input_tokens: expect.any(Number) });
  });

  it('refuses a key without balance with 429 insufficient_quota, as chat does', async () => {
    const apiKey = await createKey(0);
    const counted = await postRawJson(gateway, apiKey, '/v1/messages/count_tokens', countTokensBody);
    const chat = await postRawJson(gateway, apiKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(counted.status).toBe(chat.status);
    expect(counted.status).toBe(429);
    expect(counted.json()).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
  });

  it("counts against the key's requests per minute", async () => {
    const apiKey = await createKey(1_000_000_000, { ...noLimits, requestsPerMinute: 2 });
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++)
      statuses.push((await postRawJson(gateway, apiKey, '/v1/messages/count_tokens', countTokensBody)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // The count_tokens requests used the minute's allowance for the paid endpoints too.
    const chat = await postRawJson(gateway, apiKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(chat.status).toBe(429);
  });

  it('refuses a body over its own cap with 413', async () => {
    const large = { ...countTokensBody, messages: [{ role: 'user', content: 'x'.repeat(bodyLimitBytes * 2) }] };
    const answer = await postRawJson(gateway, await createKey(1_000_000_000), '/v1/messages/count_tokens', large);
    expect(answer.status).toBe(413);
  });
});
