// A billed gateway on loopback with one vendor channel (the Anthropic simulator, the OpenAI simulator speaking chat
// completions, or the Gemini simulator) serving the model ids Claude Code asks for, a funded key, and what the vendor
// and the usage log saw. The channel is as an operator sets it up: a model mapping and nothing else (no betas enabled).
import { startAnthropicSimulator } from '../../simulators/anthropic-simulator.js';
import { startGeminiSimulator } from '../../simulators/gemini-simulator.js';
import type { RecordedRequest } from '../../simulators/openai-simulator.js';
import type { UsageLogRecord } from '../../../src/storage/billing-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
} from '../../billing/start-billing-test-gateway.js';

/** Which vendor the channel speaks: Anthropic's Messages as sent, or chat completions or Gemini the gateway translates to. */
export type CodingAgentVendor = 'anthropic' | 'openai-chat' | 'gemini';

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
const geminiSecret = 'gemini-coding-agents';
/** What the OpenAI simulator behind startBillingTestGateway accepts as the channel secret. */
const openAiSecret = 'upstream';

/** Starts the gateway and the simulator of `vendor`; `models` are the public ids, all mapped to the vendor's model. */
export async function startCodingAgentGateway(
  vendor: CodingAgentVendor,
  models: readonly string[],
): Promise<CodingAgentGateway> {
  // A Gemini `thinking` model signs its calls, so the signatures' round trip through Claude Code is covered too.
  const vendorModel = { anthropic: 'claude-sim', 'openai-chat': 'gpt-4o', gemini: 'gemini-thinking-sim' }[vendor];
  const gateway = await startBillingTestGateway({
    // The default channel of the helper serves one unused id; the channel under test is added below.
    models: ['unused-default-model'],
    prices: models.map(createUnitPrice),
  });
  const anthropic = vendor === 'anthropic' ? await startAnthropicSimulator({ apiKey: anthropicSecret }) : undefined;
  const gemini = vendor === 'gemini' ? await startGeminiSimulator({ apiKey: geminiSecret }) : undefined;
  const closeSimulators = async (): Promise<void> => {
    await anthropic?.close();
    await gemini?.close();
  };
  try {
    await gateway.createChannel({
      protocol: anthropic ? 'anthropic' : gemini ? 'gemini' : 'openai',
      baseUrl: anthropic?.url ?? gemini?.url ?? gateway.simulator.url,
      secret: anthropic ? anthropicSecret : gemini ? geminiSecret : openAiSecret,
      models: Object.fromEntries(models.map((model) => [model, vendorModel])),
    });
    const user = await gateway.createUser();
    // Micro-units: far more than any run spends at one micro-unit per token.
    await gateway.topUp(user, 1_000_000_000);
    const key = await gateway.createKey(user);
    return {
      url: gateway.url,
      apiKey: key.secret,
      vendorRequests: () => anthropic?.requests ?? gemini?.requests ?? gateway.simulator.requests,
      async usageRows() {
        await settleEverything([gateway.running], user.id);
        return gateway.running.billing.store.listUsageLogs({ apiKeyId: key.apiKeyId, limit: 500 });
      },
      async close() {
        await gateway.close();
        await closeSimulators();
      },
    };
  } catch (error) {
    await gateway.close();
    await closeSimulators();
    throw error;
  }
}
