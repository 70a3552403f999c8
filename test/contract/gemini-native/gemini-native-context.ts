// One billed gateway per vendor target with its simulator behind it, for Gemini-native clients (@google/genai,
// @ai-sdk/google): a funded key, the public models the channel maps to the target's models, and the usage log.
import type { UsageLogRecord } from '../../../src/storage/billing-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../../billing/start-billing-test-gateway.js';
import type { ContractTarget, ContractUpstream } from '../contract-targets.js';

/** The public chat model every Gemini-native scenario asks for. */
export const geminiNativeModel = 'contract-chat';

/** The public embedding model, served by the target's embedding model. */
export const geminiNativeEmbeddingModel = 'contract-embedding';

/** A public model served by the target's model that answers with the vendor's "overloaded" status. */
export const geminiNativeOverloadedModel = 'contract-overloaded';

/** A public model served by the target's model that reports prompt-cache reads. */
export const geminiNativeCacheModel = 'contract-cache';

/** One target's running gateway and simulator, as a Gemini-native client sees them. */
export interface GeminiNativeContext {
  target: ContractTarget;
  gateway: BillingTestGateway;
  upstream: ContractUpstream;
  /** a funded gateway key (never the vendor's secret) */
  apiKey: string;
  /** a key of a user without balance */
  unfundedApiKey: string;
  /** the usage rows of the key, once every admitted request is settled */
  usageRows(): Promise<UsageLogRecord[]>;
  close(): Promise<void>;
}

/** Starts the target's simulator and a billed gateway with one channel of the target's protocol. */
export async function startGeminiNativeContext(target: ContractTarget): Promise<GeminiNativeContext> {
  const upstream = await target.start();
  const gateway = await startBillingTestGateway({
    // The helper's own channel serves an id no scenario uses; the target's channel is added below.
    models: ['unused-default-model'],
    prices: [geminiNativeModel, geminiNativeEmbeddingModel, geminiNativeOverloadedModel, geminiNativeCacheModel].map(
      createUnitPrice,
    ),
  });
  await gateway.createChannel({
    protocol: target.protocol,
    baseUrl: upstream.url,
    secret: upstream.secret,
    settings: target.settings,
    models: {
      [geminiNativeModel]: target.normalModel,
      [geminiNativeEmbeddingModel]: target.embeddingModel,
      [geminiNativeOverloadedModel]: target.overloadedModel,
      [geminiNativeCacheModel]: target.cacheModel,
    },
  });
  const user = await gateway.createUser();
  // Micro-units at one a token: far more than the scenarios spend.
  await gateway.topUp(user, 1_000_000_000);
  const key = await gateway.createKey(user);
  const unfunded = await gateway.createKey(await gateway.createUser());
  return {
    target,
    gateway,
    upstream,
    apiKey: key.secret,
    unfundedApiKey: unfunded.secret,
    async usageRows() {
      await settleEverything([gateway.running], user.id);
      return gateway.running.billing.store.listUsageLogs({ apiKeyId: key.apiKeyId, limit: 500 });
    },
    async close() {
      await gateway.close();
      await upstream.close();
    },
  };
}
