// A billed gateway on loopback with one vendor channel (the Anthropic simulator, or the OpenAI simulator speaking chat
// completions) serving the model ids Claude Code asks for, a funded key, and what the vendor and the usage log saw.
import { startAnthropicSimulator } from '../../simulators/anthropic-simulator.js';
import type { RecordedRequest } from '../../simulators/openai-simulator.js';
import type { UsageLogRecord } from '../../../src/storage/billing-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
} from '../../billing/start-billing-test-gateway.js';

/** Which vendor the channel speaks: Anthropic's Messages as sent, or OpenAI chat completions the gateway translates to. */
export type CodingAgentVendor = 'anthropic' | 'openai-chat';

/** A running gateway for the coding-agent CLIs. */
export interface CodingAgentGateway {
  /** e.g. `http://127.0.0.1:PORT` (what ANTHROPIC_BASE_URL takes) */
  url: string;
  /** the funded gateway key the CLI sends */
  apiKey: string;
  /** every request the vendor simulator received */
  vendorRequests(): RecordedRequest[];
  /** the usage rows of the key, once every admitted request is settled */
  usageRows(): Promise<UsageLogRecord[]>;
  close(): Promise<void>;
}

const anthropicSecret = 'sk-ant-coding-agents';
/** What the OpenAI simulator behind startBillingTestGateway accepts as the channel secret. */
const openAiSecret = 'upstream';

/**
 * Claude Code 2.1.332 sends these `anthropic-beta` values beyond the gateway's free list for a Claude model (with
 * tool search off); they bill nothing beyond tokens, so the channel enables them at the model's own price.
 */
export const claudeCodeBetas = ['effort-2025-11-24', 'thinking-token-count-2026-05-13'];

/** Starts the gateway and the simulator of `vendor`; `models` are the public ids, all mapped to the vendor's model. */
export async function startCodingAgentGateway(
  vendor: CodingAgentVendor,
  models: readonly string[],
): Promise<CodingAgentGateway> {
  const vendorModel = vendor === 'anthropic' ? 'claude-sim' : 'gpt-4o';
  const gateway = await startBillingTestGateway({
    // The default channel of the helper serves one unused id; the channel under test is added below.
    models: ['unused-default-model'],
    prices: models.map(createUnitPrice),
  });
  const anthropic = vendor === 'anthropic' ? await startAnthropicSimulator({ apiKey: anthropicSecret }) : undefined;
  try {
    await gateway.createChannel({
      protocol: vendor === 'anthropic' ? 'anthropic' : 'openai',
      baseUrl: anthropic?.url ?? gateway.simulator.url,
      secret: anthropic ? anthropicSecret : openAiSecret,
      models: Object.fromEntries(models.map((model) => [model, vendorModel])),
      settings: anthropic ? { premiumPriceRatio: '1', anthropicBetas: claudeCodeBetas.join(',') } : {},
    });
    const user = await gateway.createUser();
    // Micro-units: far more than any run spends at one micro-unit per token.
    await gateway.topUp(user, 1_000_000_000);
    const key = await gateway.createKey(user);
    return {
      url: gateway.url,
      apiKey: key.secret,
      vendorRequests: () => anthropic?.requests ?? gateway.simulator.requests,
      async usageRows() {
        await settleEverything([gateway.running], user.id);
        return gateway.running.billing.store.listUsageLogs({ apiKeyId: key.apiKeyId, limit: 500 });
      },
      async close() {
        await gateway.close();
        await anthropic?.close();
      },
    };
  } catch (error) {
    await gateway.close();
    await anthropic?.close();
    throw error;
  }
}
