// A billed gateway on loopback with one vendor channel for Codex: the OpenAI simulator with the Responses API (the
// body passed through) or the Anthropic simulator (translated), serving the model id Codex asks for, a funded key,
// and what the vendor and the usage log saw.
import { startAnthropicSimulator } from '../../simulators/anthropic-simulator.js';
import type { RecordedRequest } from '../../simulators/openai-simulator.js';
import type { UsageLogRecord } from '../../../src/storage/billing-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
} from '../../billing/start-billing-test-gateway.js';

/** Which vendor Codex's Responses requests reach: OpenAI's Responses API as sent, or Anthropic's Messages. */
export type CodexVendor = 'openai-responses' | 'anthropic';

/** A running gateway for Codex. */
export interface CodexGateway {
  /** the gateway's origin, e.g. `http://127.0.0.1:PORT` */
  url: string;
  /** the funded gateway key Codex sends */
  apiKey: string;
  /** every request the vendor simulator received */
  vendorRequests(): RecordedRequest[];
  /** the usage rows of the key, once every admitted request is settled */
  usageRows(): Promise<UsageLogRecord[]>;
  close(): Promise<void>;
}

const anthropicSecret = 'sk-ant-codex';
/** What the OpenAI simulator behind startBillingTestGateway accepts as the channel secret. */
const openAiSecret = 'upstream';

/** Starts the gateway and the simulator of `vendor`, with `model` (the id Codex asks for) mapped to the vendor's. */
export async function startCodexGateway(vendor: CodexVendor, model: string): Promise<CodexGateway> {
  const gateway = await startBillingTestGateway({
    // The default channel of the helper serves one unused id; the channel under test is added below.
    models: ['unused-default-model'],
    prices: [createUnitPrice(model)],
  });
  const anthropic = vendor === 'anthropic' ? await startAnthropicSimulator({ apiKey: anthropicSecret }) : undefined;
  try {
    await gateway.createChannel({
      protocol: vendor === 'anthropic' ? 'anthropic' : 'openai',
      baseUrl: anthropic?.url ?? gateway.simulator.url,
      secret: anthropic ? anthropicSecret : openAiSecret,
      models: { [model]: anthropic ? 'claude-sim' : 'gpt-4o' },
      settings: anthropic ? {} : { responsesApi: 'true' },
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
