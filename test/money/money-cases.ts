// The money conformance matrix as one table: which vendor models report which usage, which endpoints reach each
// vendor, and which exit modes each combination has. Combinations that do not exist are absent from the table.
import type { ReportedUsage } from './money-price.js';

/** The vendors the matrix runs against: the simulators, the OpenAI one behind both of its wires. */
export type MoneyVendor = 'openai-chat-wire' | 'openai-responses-wire' | 'anthropic' | 'gemini' | 'bedrock';

/** The token-billed client endpoints. */
export type TokenEndpoint = 'chat' | 'completions' | 'responses' | 'messages';

/** How a token case is asked and ended. */
export type TokenMode = 'non-streamed' | 'streamed' | 'client-abort';

/** A vendor model of the matrix and the usage its simulator reports for the matrix's prompt. */
export interface UsageVariant {
  vendor: MoneyVendor;
  /** what is special about its usage */
  variant: 'plain' | 'cache-read' | 'cache-read-and-write' | 'cache-write-one-hour' | 'reasoning';
  /** the model name the vendor receives */
  vendorModel: string;
  /** the endpoints whose requests reach this model (a 1-hour cache TTL can only be asked for on Messages) */
  endpoints: readonly TokenEndpoint[];
  /** what the vendor reports for the matrix's prompt */
  usage: ReportedUsage;
}

/** The prompt every token case sends: eight words, eight tokens for every simulator. */
export const matrixPrompt = 'one two three four five six seven eight';
/** The simulators echo the prompt: "Echo: one … eight", nine words, nine tokens, nine content events. */
const answerTokens = 9;
/** Hidden reasoning the reasoning models report on top of the answer. */
export const hiddenReasoningTokens = 7;
/** The Gemini simulator's thinking models report this many thought tokens. */
const geminiThoughtTokens = 3;

function usage(parts: Partial<ReportedUsage> & { outputTokens?: number } = {}): ReportedUsage {
  return {
    promptTokens: 8,
    cacheReadTokens: 0,
    cacheWriteFiveMinuteTokens: 0,
    cacheWriteOneHourTokens: 0,
    outputTokens: answerTokens,
    ...parts,
  };
}

const everyChatLikeEndpoint = ['chat', 'responses', 'messages'] as const;

/** Every vendor model of the matrix. */
export const usageVariants: readonly UsageVariant[] = [
  {
    vendor: 'openai-chat-wire',
    variant: 'plain',
    vendorModel: 'money-gpt',
    endpoints: [...everyChatLikeEndpoint, 'completions'],
    usage: usage(),
  },
  // The simulator reports half the prompt read from the cache.
  {
    vendor: 'openai-chat-wire',
    variant: 'cache-read',
    vendorModel: 'sim-cached-prompt',
    endpoints: everyChatLikeEndpoint,
    usage: usage({ cacheReadTokens: 4 }),
  },
  {
    vendor: 'openai-chat-wire',
    variant: 'reasoning',
    vendorModel: `sim-reasoning-${hiddenReasoningTokens}`,
    endpoints: everyChatLikeEndpoint,
    usage: usage({ outputTokens: answerTokens + hiddenReasoningTokens }),
  },
  {
    vendor: 'openai-responses-wire',
    variant: 'plain',
    vendorModel: 'money-gpt',
    endpoints: everyChatLikeEndpoint,
    usage: usage(),
  },
  {
    vendor: 'openai-responses-wire',
    variant: 'cache-read',
    vendorModel: 'sim-cached-prompt',
    endpoints: everyChatLikeEndpoint,
    usage: usage({ cacheReadTokens: 4 }),
  },
  {
    vendor: 'openai-responses-wire',
    variant: 'reasoning',
    vendorModel: `sim-reasoning-${hiddenReasoningTokens}`,
    endpoints: everyChatLikeEndpoint,
    usage: usage({ outputTokens: answerTokens + hiddenReasoningTokens }),
  },
  {
    vendor: 'anthropic',
    variant: 'plain',
    vendorModel: 'claude-money',
    endpoints: everyChatLikeEndpoint,
    usage: usage(),
  },
  // A model named `cache` reads half the prompt from the cache and writes one token to it (5-minute TTL).
  {
    vendor: 'anthropic',
    variant: 'cache-read-and-write',
    vendorModel: 'claude-cache-money',
    endpoints: everyChatLikeEndpoint,
    usage: usage({ cacheReadTokens: 4, cacheWriteFiveMinuteTokens: 1 }),
  },
  // `cache_control: { ttl: '1h' }` writes half the prompt at 1 hour and a quarter at 5 minutes.
  {
    vendor: 'anthropic',
    variant: 'cache-write-one-hour',
    vendorModel: 'claude-money',
    endpoints: ['messages'],
    usage: usage({ cacheWriteOneHourTokens: 4, cacheWriteFiveMinuteTokens: 2 }),
  },
  {
    vendor: 'anthropic',
    variant: 'reasoning',
    vendorModel: `sim-reasoning-${hiddenReasoningTokens}`,
    endpoints: everyChatLikeEndpoint,
    usage: usage({ outputTokens: answerTokens + hiddenReasoningTokens }),
  },
  { vendor: 'gemini', variant: 'plain', vendorModel: 'gemini-money', endpoints: everyChatLikeEndpoint, usage: usage() },
  {
    vendor: 'gemini',
    variant: 'cache-read',
    vendorModel: 'gemini-cache-money',
    endpoints: everyChatLikeEndpoint,
    usage: usage({ cacheReadTokens: 4 }),
  },
  {
    vendor: 'gemini',
    variant: 'reasoning',
    vendorModel: 'gemini-thinking-money',
    endpoints: everyChatLikeEndpoint,
    usage: usage({ outputTokens: answerTokens + geminiThoughtTokens }),
  },
  {
    vendor: 'bedrock',
    variant: 'plain',
    vendorModel: 'anthropic.claude-money-v1:0',
    endpoints: everyChatLikeEndpoint,
    usage: usage(),
  },
  // Half the prompt read, two tokens written (Bedrock reports no TTL: 5-minute writes).
  {
    vendor: 'bedrock',
    variant: 'cache-read-and-write',
    vendorModel: 'sim-cached-prompt',
    endpoints: everyChatLikeEndpoint,
    usage: usage({ cacheReadTokens: 4, cacheWriteFiveMinuteTokens: 2 }),
  },
];

/** The public model id the gateway serves a variant under. */
export function publicModelOf(variant: Pick<UsageVariant, 'vendor' | 'variant'>): string {
  return `money-${variant.vendor}-${variant.variant}`;
}

/** One token case of the matrix. */
export interface TokenCase {
  name: string;
  endpoint: TokenEndpoint;
  mode: TokenMode;
  variant: UsageVariant;
  /** for a client abort: after how many text events the client leaves (1 … 4 of the nine), from a seeded generator */
  leaveAfterEvents: number;
}

/** A small deterministic generator (mulberry32), so "a random event" is the same event on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A client leaves after one of the first four text events: at least five more events (one simulator delay each) are
 * still to come, so it has left while the gateway is still relaying (logged 499) and not after the stream ended.
 */
const latestLeavingEvent = 4;

const tokenModes: readonly TokenMode[] = ['non-streamed', 'streamed', 'client-abort'];

/** Every endpoint × vendor model × mode of the token slice. */
export function listTokenCases(): TokenCase[] {
  const random = seededRandom(38);
  return usageVariants.flatMap((variant) =>
    variant.endpoints.flatMap((endpoint) =>
      tokenModes.map((mode) => ({
        name: `${endpoint} × ${variant.vendor} (${variant.variant}) × ${mode}`,
        endpoint,
        mode,
        variant,
        leaveAfterEvents: 1 + Math.floor(random() * latestLeavingEvent),
      })),
    ),
  );
}

/** The exit paths where the vendor, not the client, ends the answer early. */
export type VendorExitMode = 'vendor-error-mid-stream' | 'vendor-timeout';

/** What the documented rule charges on a vendor exit path (docs/BILLING.md, Settle and Failure). */
export type VendorExitCharge =
  /** a stream cut after some text without usage: the text the client got, counted (o200k), plus the estimated input */
  | 'generated-text-and-estimated-input'
  /** the vendor never answered: nothing was generated, the hold is released, nothing is charged */
  | 'nothing';

/** One vendor exit case of the matrix. */
export interface VendorExitCase {
  name: string;
  vendor: MoneyVendor;
  endpoint: Exclude<TokenEndpoint, 'completions'>;
  mode: VendorExitMode;
  streamed: boolean;
  /** the simulator model that misbehaves this way */
  vendorModel: string;
  charge: VendorExitCharge;
}

const everyVendor: readonly MoneyVendor[] = [
  'openai-chat-wire',
  'openai-responses-wire',
  'anthropic',
  'gemini',
  'bedrock',
];

/**
 * How each vendor misbehaves: every simulator can send two content events then its own mid-stream error event, and
 * can never answer (the gateway's upstream timeout ends it); the OpenAI, Anthropic and Gemini simulators can fall
 * silent mid-stream (`sim-stall-after-<N>`), the Bedrock one cannot, so its mid-stream timeout is absent. A
 * non-streamed answer has no middle, so a mid-stream failure is streamed only.
 */
const vendorExits: ReadonlyArray<{
  vendors: readonly MoneyVendor[];
  mode: VendorExitMode;
  streamed: readonly boolean[];
  vendorModel: string;
  charge: VendorExitCharge;
}> = [
  {
    vendors: everyVendor,
    mode: 'vendor-error-mid-stream',
    streamed: [true],
    vendorModel: 'sim-stream-error-event',
    charge: 'generated-text-and-estimated-input',
  },
  {
    vendors: ['openai-chat-wire', 'openai-responses-wire', 'anthropic', 'gemini'],
    mode: 'vendor-timeout',
    streamed: [true],
    vendorModel: 'sim-stall-after-3',
    charge: 'generated-text-and-estimated-input',
  },
  { vendors: everyVendor, mode: 'vendor-timeout', streamed: [false, true], vendorModel: 'sim-hang', charge: 'nothing' },
];

/** The public model id a vendor exit is served under. */
export function exitModelOf(vendor: MoneyVendor, vendorModel: string): string {
  return `money-exit-${vendor}-${vendorModel}`;
}

/** Every endpoint × vendor × vendor exit of the matrix. */
export function listVendorExitCases(): VendorExitCase[] {
  return vendorExits.flatMap((exit) =>
    exit.vendors.flatMap((vendor) =>
      everyChatLikeEndpoint.flatMap((endpoint) =>
        exit.streamed.map((streamed) => ({
          name: `${endpoint} × ${vendor} × ${exit.mode} (${exit.vendorModel}, ${streamed ? 'streamed' : 'non-streamed'})`,
          vendor,
          endpoint,
          mode: exit.mode,
          streamed,
          vendorModel: exit.vendorModel,
          charge: exit.charge,
        })),
      ),
    ),
  );
}

/** The media and embedding endpoints: billed per image, per second of audio, or per input token, never streamed. */
export type MediaEndpoint = 'embeddings' | 'images' | 'edits' | 'transcription';

/** What a media case's vendor reports, and so what it must be charged. */
export type MediaUsage =
  /** input tokens only (embeddings) */
  | { kind: 'input-tokens'; tokens: number }
  /** images returned, each at the model's image price */
  | { kind: 'images'; count: number }
  /** seconds of audio the vendor billed, at the per-minute price */
  | { kind: 'audio-seconds'; seconds: number }
  /** token-typed transcription usage: audio input tokens, and one output token per word of the transcript */
  | { kind: 'transcription-tokens'; inputTokens: number };

/** One media case of the matrix (only the vendors that have the endpoint are listed). */
export interface MediaCase {
  name: string;
  endpoint: MediaEndpoint;
  vendor: MoneyVendor;
  vendorModel: string;
  usage: MediaUsage;
}

/** The embedding inputs every embeddings case sends: five words in two texts of 13 and 9 characters. */
export const embeddingInputs = ['one two three', 'four five'];
/** Seconds of the WAV every transcription sends: OpenAI bills whole seconds (2), tokens by the second (15). */
export const transcriptionSeconds = 1.5;

/**
 * Embeddings exist on the OpenAI wire and Gemini (whose batchEmbedContents reports no usage: the documented estimate
 * is a token per four characters of each text, at least one); images, edits and transcriptions on the OpenAI wire only.
 */
const mediaEntries: ReadonlyArray<Omit<MediaCase, 'name'>> = [
  {
    endpoint: 'embeddings',
    vendor: 'openai-chat-wire',
    vendorModel: 'text-embedding-3-small',
    usage: { kind: 'input-tokens', tokens: 5 },
  },
  {
    endpoint: 'embeddings',
    vendor: 'gemini',
    vendorModel: 'gemini-embedding-001',
    usage: { kind: 'input-tokens', tokens: 4 + 3 },
  },
  { endpoint: 'images', vendor: 'openai-chat-wire', vendorModel: 'dall-e-3', usage: { kind: 'images', count: 2 } },
  // gpt-image reports token usage too; the gateway's rule is a price per returned image.
  { endpoint: 'images', vendor: 'openai-chat-wire', vendorModel: 'gpt-image-1', usage: { kind: 'images', count: 2 } },
  { endpoint: 'edits', vendor: 'openai-chat-wire', vendorModel: 'dall-e-2', usage: { kind: 'images', count: 2 } },
  {
    endpoint: 'transcription',
    vendor: 'openai-chat-wire',
    vendorModel: 'whisper-1',
    usage: { kind: 'audio-seconds', seconds: 2 },
  },
  {
    endpoint: 'transcription',
    vendor: 'openai-chat-wire',
    vendorModel: 'gpt-4o-transcribe',
    usage: { kind: 'transcription-tokens', inputTokens: 15 },
  },
];

/** Every media case, named. */
export const mediaCases: readonly MediaCase[] = mediaEntries.map((entry) => ({
  ...entry,
  name: `${entry.endpoint} × ${entry.vendor} (${entry.vendorModel}) × non-streamed`,
}));

/** The public model id a media case is served under. */
export function mediaModelOf(entry: Pick<MediaCase, 'vendor' | 'vendorModel'>): string {
  return `money-media-${entry.vendor}-${entry.vendorModel}`;
}
