// The matrix's gateway: billing on, every simulator behind its own channel, every public model at the matrix's price.
import type { BillingConfig } from '../../src/billing/billing-config.js';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import {
  startBillingTestGateway,
  type BillingTestChannel,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import type { MoneyVendor } from './money-cases.js';
import { moneyPrice } from './money-price.js';

/** A running matrix gateway and its simulators. */
export interface MoneyGateway {
  gateway: BillingTestGateway;
  openAi: OpenAiSimulator;
  anthropic: AnthropicSimulator;
  gemini: GeminiSimulator;
  bedrock: BedrockSimulator;
  close(): Promise<void>;
}

/** A public model the matrix serves: its vendor and the name the vendor receives. */
export interface MoneyModel {
  publicModel: string;
  vendor: MoneyVendor;
  vendorModel: string;
}

const anthropicSecret = 'sk-ant-money-matrix';
const geminiSecret = 'gemini-money-matrix';
/** Every simulator waits this long before each content event, so a client can leave in the middle. */
const eventDelayMs = 25;

/**
 * Starts the simulators and the gateway; `channelSets` are model sets that each get their own channel per vendor (so
 * a timeout that opens one channel's breaker leaves the others alone). `upstreamTimeoutMs` bounds a silent vendor.
 */
export async function startMoneyGateway(options: {
  channelSets: MoneyModel[][];
  upstreamTimeoutMs: number;
  /** billing settings, e.g. a shared Redis wallet */
  billing?: Partial<BillingConfig>;
  /** a shared database (PostgreSQL) instead of a new SQLite file */
  databaseUrl?: string;
}): Promise<MoneyGateway> {
  const models = options.channelSets.flat();
  const gateway = await startBillingTestGateway({
    models: [],
    prices: models.map((model) => moneyPrice(model.publicModel)),
    config: moneyGatewayConfig(options.upstreamTimeoutMs),
    ...(options.billing ? { billing: options.billing } : {}),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  const openAi = await startOpenAiSimulator({ streamChunkDelayMs: eventDelayMs });
  const anthropic = await startAnthropicSimulator({ apiKey: anthropicSecret, streamChunkDelayMs: eventDelayMs });
  const gemini = await startGeminiSimulator({ apiKey: geminiSecret, streamChunkDelayMs: eventDelayMs });
  const bedrock = await startBedrockSimulator({ streamFrameDelayMs: eventDelayMs });
  const channelOf = (vendor: MoneyVendor): Omit<BillingTestChannel, 'models'> => {
    switch (vendor) {
      case 'openai-chat-wire':
        return { protocol: 'openai', baseUrl: openAi.url, secret: 'upstream' };
      case 'openai-responses-wire':
        return { protocol: 'openai', baseUrl: openAi.url, secret: 'upstream', settings: { responsesApi: 'true' } };
      case 'anthropic':
        return { protocol: 'anthropic', baseUrl: anthropic.url, secret: anthropicSecret };
      case 'gemini':
        return { protocol: 'gemini', baseUrl: gemini.url, secret: geminiSecret };
      case 'bedrock':
        return {
          protocol: 'bedrock',
          baseUrl: bedrock.url,
          secret: bedrock.channelSecret,
          settings: { region: bedrock.region },
        };
      default: {
        const unreachable: never = vendor;
        throw new Error(`unknown vendor ${String(unreachable)}`);
      }
    }
  };
  for (const set of options.channelSets) {
    const vendors = [...new Set(set.map((model) => model.vendor))];
    for (const vendor of vendors) {
      const mapping = Object.fromEntries(
        set.filter((model) => model.vendor === vendor).map((model) => [model.publicModel, model.vendorModel]),
      );
      await gateway.createChannel({ ...channelOf(vendor), models: mapping });
    }
  }
  return {
    gateway,
    openAi,
    anthropic,
    gemini,
    bedrock,
    async close() {
      await gateway.close();
      await openAi.close();
      await anthropic.close();
      await gemini.close();
      await bedrock.close();
    },
  };
}

/** The matrix's gateway settings: a short bound on silent vendors, and breakers that never open during a run. */
function moneyGatewayConfig(upstreamTimeoutMs: number): Partial<GatewayConfig> {
  return {
    upstreamHeadersTimeoutMs: upstreamTimeoutMs,
    upstreamBodyTimeoutMs: upstreamTimeoutMs,
    upstreamAnswerTimeoutMs: upstreamTimeoutMs,
    channelHealth: { ...defaultChannelHealthSettings, consecutiveFailures: 1_000 },
  };
}

/** Another gateway node on the first one's database (its channels, prices, users and keys), e.g. sharing Redis too. */
export async function startMoneyNode(options: {
  databaseUrl: string;
  billing: Partial<BillingConfig>;
  upstreamTimeoutMs: number;
}): Promise<BillingTestGateway> {
  const node = await startBillingTestGateway({
    models: [],
    billing: options.billing,
    databaseUrl: options.databaseUrl,
    config: moneyGatewayConfig(options.upstreamTimeoutMs),
  });
  await node.running.routing.refresh();
  await node.running.billing.refresh(true);
  return node;
}
