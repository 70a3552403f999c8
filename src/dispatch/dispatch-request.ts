import type { CacheAffinityKeySource } from './affinity-key-for.js';
import type { FormData } from 'undici';
import type { ClientAnswerCodec } from '../core/canonical/client-answer-codec.js';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import type { ChatCompletionRequest } from '../core/openai-chat-request.js';
import type { SpeechRequestFields } from '../core/speech-request.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { AnswerUsage } from '../core/answer-usage.js';
import type { EmbeddingRequestFields } from '../providers/vendor-adapter.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { PassThroughProtocol } from './pass-through/pass-through-protocol.js';

/** What every request to pass to a model's channels carries, whatever it carries besides. */
export interface DispatchRequestBase {
  /** the public model id the client asked for */
  modelId: string;
  /** the channels that accept every field of the request (forwarded-field policy); all of the model's when absent */
  acceptsChannel?: (channel: RoutableChannel) => boolean;
  /** true when the answer is an SSE stream */
  stream: boolean;
  /** for streams: whether the client asked for the usage chunk */
  clientWantsUsage: boolean;
  /** headers to add to a successful response, e.g. rate-limit state */
  responseHeaders: Record<string, string>;
  /** the model's output cap from the catalog */
  maxOutputTokens?: number;
  /** whether the model reasons, from the catalog (absent: unknown); see CatalogModel.reasoning */
  modelReasoning?: boolean;
  /**
   * the request's stable prompt prefix key (a client's `prompt_cache_key`, or a hash of its system prompt, tools and
   * first cached messages), or a function computing it, called only when the model has several channels: the channel
   * that last served it is tried first (cache-sticky routing); absent: no preference
   */
  cacheAffinityKey?: CacheAffinityKeySource;
  /** the GenAI operation (`chat`, `text_completion`, `embeddings`, `generate_content`) telemetry names spans by; default `chat` */
  operationName?: string;
}

/** What a translated channel (Anthropic, Gemini, Bedrock) serves of an OpenAI-wire request: its validated chat or embeddings request. */
export type OpenAiWireTranslation =
  | { kind: 'chat'; request: ChatCompletionRequest }
  | { kind: 'embedding'; request: EmbeddingRequestFields }
  | { kind: 'speech'; request: SpeechRequestFields };

/**
 * An OpenAI-wire request (chat, completions, embeddings, images, audio): its body passes through to OpenAI-wire
 * channels; a translated channel serves it only when it carries a `translation`.
 */
export interface OpenAiWireDispatchRequest extends DispatchRequestBase {
  kind: 'openai-wire';
  /** the path below the channel's base URL, e.g. `/chat/completions` */
  upstreamPath: string;
  /** the upstream body for the model name a channel expects (and the fields that channel accepts) */
  buildBody: (upstreamModelId: string, channel: RoutableChannel) => string | Uint8Array | FormData;
  /** what translated channels serve; absent: OpenAI-wire channels only */
  translation?: OpenAiWireTranslation;
}

/**
 * A request in the gateway's own terms with its client protocol's codec (Responses, Messages): any channel protocol
 * serves it through its adapter, except a channel that speaks the client's protocol natively (`passThrough`).
 */
export interface CanonicalDispatchRequest extends DispatchRequestBase {
  kind: 'canonical';
  canonical: { request: CanonicalRequest; codec: ClientAnswerCodec };
  /** the client protocol when some channels speak it natively: those channels get the body passed through */
  passThrough?: PassThroughProtocol;
}

/** One client request to pass to whichever channel serves its model, by what it carries. */
export type DispatchRequest = OpenAiWireDispatchRequest | CanonicalDispatchRequest;

/** What happened, for logs and billing. */
export interface DispatchOutcome {
  channelId: string | undefined;
  status: number;
  /** typed token usage read from the vendor's answer: what billing settles from */
  usage: TokenUsage | undefined;
  /** Unix milliseconds of the first byte sent to the client */
  firstByteAt: number | undefined;
  /** the error code the client received, if any */
  errorCode: string | undefined;
  /** true when the client went away before the answer was complete (or shutdown cut the request) */
  clientAborted: boolean;
  /** true once the request was sent to a vendor: from then on it is billed for what the vendor did */
  sentUpstream: boolean;
  /**
   * true when a stream whose client left (or that shutdown cut) ended without the vendor's usage although the vendor
   * worked on it (drain cut, vendor cut or stalled, no usage on its wire): billing then charges the request's hold
   */
  usageUnknown: boolean;
  /** generated text of a stream that ended without usage */
  generatedText: string | undefined;
  /** what a successful non-streamed answer showed besides its token usage, read once where it was read; undefined without one */
  answerUsage: AnswerUsage | undefined;
}

/** What one successful attempt produced. */
export type AttemptValue = Pick<
  DispatchOutcome,
  'status' | 'usage' | 'firstByteAt' | 'errorCode' | 'generatedText' | 'answerUsage'
>;
