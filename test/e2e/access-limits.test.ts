// Invalid API keys limited per client address (valid keys never slowed), and a channel whose secret cannot be
// decrypted left out of routing without stopping anyone else.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import { invalidApiKeyLimit } from '../../src/server/authenticate-api-key.js';
import { createOpenAiClient, uniqueName } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';

const channelSecret = 'sk-upstream-access-limits';

let setup: SimulatedGateway;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: ['gpt-4o'] });
});

afterAll(async () => {
  await setup?.close();
});

function statusWithKey(apiKey: string): Promise<{ status: number; code?: string | null; retryAfter?: string | null }> {
  return createOpenAiClient(setup.gateway, apiKey)
    .models.list()
    .then(
      () => ({ status: 200 }),
      (error: { status: number; code?: string | null; headers?: Headers }) => ({
        status: error.status,
        code: error.code,
        retryAfter: error.headers?.get('retry-after'),
      }),
    );
}

describe('a channel whose secret cannot be decrypted', () => {
  it('is left out of routing while every other channel keeps serving, through refreshes', async () => {
    const { gateway } = setup;
    const foreignBox = createSecretBox('the secret key of another installation');
    await gateway.store.createChannel({
      name: uniqueName('unreadable'),
      protocol: 'openai',
      preset: null,
      baseUrl: 'http://127.0.0.1:9/v1',
      encryptedSecret: foreignBox.encrypt('sk-foreign-secret'),
      models: ['gpt-4o', 'o3-mini'],
      modelMapping: {},
      priority: 100,
      weight: 1,
    });
    await gateway.refreshRouting();
    expect(gateway.running.routing.current.undecryptableChannels).toHaveLength(1);

    const completion = await setup.client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'still served' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: still served');
    const models: string[] = [];
    for await (const model of setup.client.models.list()) models.push(model.id);
    expect(models).toEqual(['gpt-4o']);

    // A later change (a new key) still reaches the gateway.
    const later = await gateway.createKey();
    expect((await statusWithKey(later.secret)).status).toBe(200);
  });
});

describe('invalid API keys from one address', () => {
  it(`get 401 up to ${invalidApiKeyLimit.attempts} a minute, then 429 with Retry-After before any lookup, while valid keys still pass`, async () => {
    const { gateway, clientKey } = setup;
    for (let attempt = 0; attempt < invalidApiKeyLimit.attempts; attempt++) {
      expect((await statusWithKey(generateApiKeySecret())).status).toBe(401);
    }
    const lookups = vi.spyOn(gateway.running.routing, 'refreshStartedAfter');
    const refused = await statusWithKey(generateApiKeySecret());
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(lookups).not.toHaveBeenCalled();
    lookups.mockRestore();

    expect((await statusWithKey(clientKey)).status).toBe(200);
    const created = await gateway.createKey();
    expect((await statusWithKey(created.secret)).status).toBe(200);
  });
});
