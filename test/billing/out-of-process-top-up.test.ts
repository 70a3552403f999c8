// A top-up written by another process (the CLI, another node) counts on the very next request, even when the
// gateway checked balances a moment before: a short balance waits for a check that started after the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const model = 'billed-model';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

describe('a top-up from another process', () => {
  it('is honoured by the next request although a balance check ran just before it', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.running.billing.refresh(false);

    const otherProcessStore = createBillingStore({ databaseUrl: gateway.databaseUrl });
    await otherProcessStore.changeBalance({
      userId: user.id,
      kind: 'top-up',
      amount: 1_000_000,
      description: 'cli top-up',
    });
    await otherProcessStore.close();

    const completion = await gateway
      .client(key.secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 });
    expect(completion.choices[0]?.message.content).toBe('Echo: hello');
  });
});
