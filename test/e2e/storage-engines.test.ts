import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shouldRunPostgresTests } from '../helpers/postgres-test-database.js';
import { createOpenAiClient, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-storage-engine-channel';

/** SQLite always; PostgreSQL where GATEWAY_TEST_POSTGRES_URL is set, and always in CI (where it must not skip). */
const engines = [
  { database: 'sqlite', enabled: true },
  { database: 'postgres', enabled: shouldRunPostgresTests() },
] as const;

for (const { database, enabled } of engines) {
  describe.runIf(enabled)(`a gateway on ${database}`, () => {
    let simulator: OpenAiSimulator;
    let gateway: TestGateway;

    beforeAll(async () => {
      simulator = await startOpenAiSimulator({ apiKey: channelSecret });
      gateway = await startTestGateway({ database });
      await gateway.createChannel({
        baseUrl: simulator.url,
        secret: channelSecret,
        models: ['gpt-4o', 'gpt-4o-mini'],
        modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
      });
    });

    afterAll(async () => {
      await gateway?.close();
      await simulator?.close();
    });

    it('serves a chat completion with a stored key through a stored channel, decrypting its secret', async () => {
      const client = createOpenAiClient(gateway, (await gateway.createKey({ models: ['gpt-4o'] })).secret);
      const completion = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: `stored in ${database}` }],
      });
      expect(completion.choices[0]?.message.content).toBe(`Echo: stored in ${database}`);
      expect(simulator.requests.at(-1)).toMatchObject({
        headers: { authorization: `Bearer ${channelSecret}` },
        body: { model: 'gpt-4o-2024-08-06' },
      });
    });

    it("limits the model list to the stored group's models", async () => {
      const client = createOpenAiClient(gateway, (await gateway.createKey({ models: ['gpt-4o-mini'] })).secret);
      const ids: string[] = [];
      for await (const model of client.models.list()) ids.push(model.id);
      expect(ids).toEqual(['gpt-4o-mini']);
    });

    it('stops accepting a key disabled in the store once routing reloads', async () => {
      const { secret, record } = await gateway.createKey();
      const client = createOpenAiClient(gateway, secret);
      await client.models.list();
      await gateway.store.setApiKeyStatus(record.id, 'disabled');
      await gateway.refreshRouting();
      await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    });

    it('stops routing to a channel disabled in the store once routing reloads', async () => {
      const client = createOpenAiClient(gateway, (await gateway.createKey()).secret);
      const channel = await gateway.createChannel({
        baseUrl: simulator.url,
        secret: channelSecret,
        models: ['soon-disabled-model'],
      });
      await client.chat.completions.create({
        model: 'soon-disabled-model',
        messages: [{ role: 'user', content: 'hi' }],
      });
      await gateway.store.updateChannel(channel.id, { status: 'disabled' });
      await gateway.refreshRouting();
      const error = await client.chat.completions
        .create({ model: 'soon-disabled-model', messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
    });
  });
}
