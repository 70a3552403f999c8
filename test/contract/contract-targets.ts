// The adapters the contract suite runs against: each names its simulator, channel protocol and settings,
// the upstream model names that trigger each failure, and the scenarios it cannot support (with why).
import { startAnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator } from '../simulators/gemini-simulator.js';
import { startOpenAiSimulator } from '../simulators/openai-simulator.js';
import { startVertexSimulator } from '../simulators/vertex-simulator.js';
import type { RecordedRequest } from '../simulators/openai-simulator.js';

/** The client protocols the matrix drives. */
export type ContractProtocol = 'chat' | 'responses' | 'messages';

/** A started upstream simulator, as the suite sees it. */
export interface ContractUpstream {
  /** the channel base URL */
  url: string;
  /** the secret the gateway must present */
  secret: string;
  requests: RecordedRequest[];
  abortedRequestCount(): number;
  close(): Promise<void>;
}

/** One adapter under contract. */
export interface ContractTarget {
  /** shown in test names, e.g. `anthropic (2026-10-21)` */
  name: string;
  /** the channel protocol */
  protocol: string;
  /** channel settings */
  settings: Record<string, string>;
  /** the protocol whose bodies the channel speaks, when not its own (Vertex: `gemini` or `anthropic`) */
  bodyProtocol?: string;
  /** upstream model name answering normally */
  normalModel: string;
  /** upstream model name that reports prompt-cache reads */
  cacheModel: string;
  /** upstream embedding model name */
  embeddingModel: string;
  /** upstream model name answering with the vendor's "overloaded" status */
  overloadedModel: string;
  /** the error code the vendor's own mid-stream error event (its simulator's `sim-stream-error-event`) must become */
  midStreamErrorCode: 'server_error' | 'service_unavailable';
  /** a request field this adapter cannot honour, and the `param` its 400 must name (absent: listed as unsupported) */
  refusedParameter?: { fields: Record<string, unknown>; param: string };
  start(): Promise<ContractUpstream>;
  /** per client protocol: scenario name → why this adapter cannot support it; those scenarios are not registered */
  unsupportedScenarios: Partial<Record<ContractProtocol, Record<string, string>>>;
}

const openAiSecret = 'sk-contract-openai-upstream';
const anthropicSecret = 'sk-ant-contract-upstream';
const geminiSecret = 'AIza-contract-gemini-upstream';

/** What the OpenAI passthrough cannot show. */
const openAiUnsupported: Record<string, string> = {
  'a parameter the vendor cannot honour is refused with a 400 naming it':
    'the passthrough forwards every parameter; the OpenAI-wire vendor judges it',
};

const geminiWholeFunctionCalls =
  'Gemini streams each functionCall whole (partial arguments need streamFunctionCallArguments, which the adapter does not ask for), so the arguments arrive in one delta';

function anthropicTarget(apiVersion: string): ContractTarget {
  return {
    name: `anthropic (${apiVersion})`,
    protocol: 'anthropic',
    settings: { apiVersion },
    normalModel: 'claude-sim',
    cacheModel: 'claude-cache-sim',
    embeddingModel: 'claude-sim',
    overloadedModel: 'sim-error-529',
    midStreamErrorCode: 'service_unavailable',
    refusedParameter:
      apiVersion >= '2026-10-21'
        ? { fields: { temperature: 0.3 }, param: 'temperature' }
        : { fields: { presence_penalty: 0.5 }, param: 'presence_penalty' },
    start: async () => ({ ...(await startAnthropicSimulator({ apiKey: anthropicSecret })), secret: anthropicSecret }),
    unsupportedScenarios: {
      chat: {
        'embeddings as floats and as base64':
          'Anthropic has no embeddings API (the gateway answers 503 service_unavailable)',
      },
    },
  };
}

/** Every adapter the suite runs against. */
export const contractTargets: ContractTarget[] = [
  {
    name: 'openai (passthrough)',
    protocol: 'openai',
    settings: {},
    normalModel: 'gpt-4o',
    cacheModel: 'sim-cached-prompt',
    embeddingModel: 'text-embedding-3-small',
    overloadedModel: 'sim-error-503',
    // OpenAI's mid-stream event is a plain server_error.
    midStreamErrorCode: 'server_error',
    start: async () => ({ ...(await startOpenAiSimulator({ apiKey: openAiSecret })), secret: openAiSecret }),
    unsupportedScenarios: { chat: openAiUnsupported },
  },
  {
    // The same simulator with the Responses API declared: /v1/responses passes through, chat and Messages as above.
    name: 'openai (Responses API channel)',
    protocol: 'openai',
    settings: { responsesApi: 'true' },
    normalModel: 'gpt-4o',
    cacheModel: 'sim-cached-prompt',
    embeddingModel: 'text-embedding-3-small',
    overloadedModel: 'sim-error-503',
    midStreamErrorCode: 'server_error',
    start: async () => ({ ...(await startOpenAiSimulator({ apiKey: openAiSecret })), secret: openAiSecret }),
    unsupportedScenarios: {
      chat: openAiUnsupported,
      responses: {
        'reasoning.effort for a routed model without reasoning is a 400 naming it':
          "Responses pass through to this channel as sent; the vendor judges (the simulator's Responses API models no per-model limits)",
      },
    },
  },
  anthropicTarget('2023-06-01'),
  anthropicTarget('2026-10-21'),
  {
    name: 'gemini',
    protocol: 'gemini',
    settings: {},
    // A thinking model: its function calls carry thought signatures that must survive the tool round trips.
    normalModel: 'gemini-thinking-sim',
    cacheModel: 'gemini-cache-sim',
    embeddingModel: 'gemini-embedding-sim',
    overloadedModel: 'sim-error-503',
    midStreamErrorCode: 'service_unavailable',
    // `parallel_tool_calls: false` is honoured now (the first call is kept); one candidate per request is not negotiable.
    refusedParameter: { fields: { n: 2 }, param: 'n' },
    start: async () => ({ ...(await startGeminiSimulator({ apiKey: geminiSecret })), secret: geminiSecret }),
    unsupportedScenarios: {
      chat: { 'streamed tool-call arguments split across chunks': geminiWholeFunctionCalls },
      responses: { 'streamed tool-call arguments split across events': geminiWholeFunctionCalls },
      messages: { 'streamed tool input split across input_json_delta events': geminiWholeFunctionCalls },
    },
  },
  {
    name: 'bedrock',
    protocol: 'bedrock',
    settings: { region: 'us-east-1' },
    normalModel: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    cacheModel: 'sim-cached-prompt',
    embeddingModel: 'amazon.titan-embed-text-v2:0',
    overloadedModel: 'sim-error-503',
    midStreamErrorCode: 'service_unavailable',
    refusedParameter: { fields: { n: 2 }, param: 'n' },
    start: async () => {
      const simulator = await startBedrockSimulator();
      return { ...simulator, secret: simulator.channelSecret };
    },
    unsupportedScenarios: {
      chat: {
        'embeddings as floats and as base64':
          'the Bedrock adapter serves chat only (Bedrock embeddings use InvokeModel with per-model bodies)',
      },
    },
  },
  {
    // Gemini on Vertex AI: Gemini's body at Vertex's address, a service-account bearer token from the token endpoint.
    name: 'vertex (gemini)',
    protocol: 'vertex',
    bodyProtocol: 'gemini',
    settings: { project: 'sim-project', location: 'us-central1' },
    normalModel: 'gemini-thinking-sim',
    cacheModel: 'gemini-cache-sim',
    embeddingModel: 'gemini-embedding-sim',
    overloadedModel: 'sim-error-503',
    midStreamErrorCode: 'service_unavailable',
    refusedParameter: { fields: { n: 2 }, param: 'n' },
    start: async () => {
      const simulator = await startVertexSimulator();
      return { ...simulator, secret: simulator.serviceAccountKey };
    },
    unsupportedScenarios: {
      chat: { 'streamed tool-call arguments split across chunks': geminiWholeFunctionCalls },
      responses: { 'streamed tool-call arguments split across events': geminiWholeFunctionCalls },
      messages: { 'streamed tool input split across input_json_delta events': geminiWholeFunctionCalls },
    },
  },
  {
    // Claude on Vertex AI: the Messages body with `anthropic_version: vertex-2023-10-16` at rawPredict.
    name: 'vertex (claude)',
    protocol: 'vertex',
    bodyProtocol: 'anthropic',
    settings: { project: 'sim-project', location: 'us-central1', publisher: 'anthropic' },
    normalModel: 'claude-sim',
    cacheModel: 'claude-cache-sim',
    embeddingModel: 'claude-sim',
    overloadedModel: 'sim-error-529',
    midStreamErrorCode: 'service_unavailable',
    refusedParameter: { fields: { presence_penalty: 0.5 }, param: 'presence_penalty' },
    start: async () => {
      const simulator = await startVertexSimulator();
      return { ...simulator, secret: simulator.serviceAccountKey };
    },
    unsupportedScenarios: {
      chat: {
        'embeddings as floats and as base64':
          'Claude on Vertex AI has no embeddings (the gateway answers 503 service_unavailable)',
      },
    },
  },
];
