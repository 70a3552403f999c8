// The SERVER span of a billed request carries the cost it was settled at (`gateway.cost`, micro-units), the same
// number the usage log keeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { otlpSpanKind } from '../doubles/otlp/otlp-proto-schema.js';
import { startOtlpReceiver, type OtlpReceiver } from '../doubles/otlp/start-otlp-receiver.js';

const model = 'billed-traced-model';

let receiver: OtlpReceiver;
let gateway: BillingTestGateway;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    config: {
      telemetry: {
        tracesEndpoint: `${receiver.url}/v1/traces`,
        metricsEndpoint: undefined,
        tracesHeaders: {},
        metricsHeaders: {},
        sampler: { ratio: 1, parentBased: false },
        serviceName: 'billed-gateway',
        metricExportIntervalMs: 600_000,
        propagateToVendors: false,
      },
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await receiver?.close();
});

describe('the cost on the request span', () => {
  it('is the settled cost in micro-units, as the usage log has it', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 10_000_000);
    const { response } = await gateway
      .client(key.secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'what does this cost' }], max_tokens: 20 })
      .withResponse();
    const requestId = response.headers.get('x-request-id');
    await gateway.running.telemetry.forceFlush();
    await gateway.running.billing.writer.flush();
    const [log] = await gateway.running.billing.store.listUsageLogs({ userId: user.id, limit: 10 });

    const span = receiver.spans.find(
      (candidate) => candidate.kind === otlpSpanKind.server && candidate.attributes['gateway.request.id'] === requestId,
    );
    expect(log?.cost).toBeGreaterThan(0);
    expect(span?.attributes['gateway.cost']).toBe(log?.cost);
    expect(span?.attributes['gateway.user.id']).toBe(user.id);
  });
});
