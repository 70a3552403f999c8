import type { FormData } from 'undici';
import type { ClientAnswerCodec } from '../core/canonical/client-answer-codec.js';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import type { ChatCompletionRequest } from '../core/openai-chat-request.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { AnswerUsage } from '../core/answer-usage.js';
import type { EmbeddingRequestFields } from '../providers/vendor-adapter.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { PassThroughProtocol } from './pass-through/pass-through-protocol.js';

/** One client request to pass to whichever channel serves its model. */
export interface DispatchRequest {
  /** the public model id the client asked for */
  modelId: string;
  /**
   * The OpenAI-wire byte pass-through (chat, completions, embeddings, images, audio): the path below the channel's
   * base URL (e.g. `/chat/completions`) and the upstream body for the model name a channel expects (and the fields
   * that channel accepts). Absent for Responses and Messages, which are served by `passThrough` or `canonical` only.
   */
  openAiWire?: {
    upstreamPath: string;
    buildBody: (upstreamModelId: string, channel: RoutableChannel) => string | Uint8Array | FormData;
  };
  /** the channels that accept every field of the request (forwarded-field policy); all of the model's when absent */
  acceptsChannel?: (channel: RoutableChannel) => boolean;
  /** true when the answer is an SSE stream */
  stream: boolean;
  /** for streams: whether the client asked for the usage chunk */
  clientWantsUsage: boolean;
  /** headers to add to a successful response, e.g. rate-limit state */
  responseHeaders: Record<string, string>;
  /** the validated chat request, so translated protocols (Anthropic, Gemini, Bedrock) can serve it */
  chatRequest?: ChatCompletionRequest;
  /** the validated embeddings request, for translated protocols that serve embeddings */
  embeddingRequest?: EmbeddingRequestFields;
  /**
   * the request in the gateway's own terms and the client protocol's codec: set for Responses and Messages, which
   * any channel protocol serves through its adapter (unless the channel speaks the client's protocol: pass-through)
   */
  canonical?: { request: CanonicalRequest; codec: ClientAnswerCodec };
  /** the client protocol when some channels speak it natively: those channels get the body passed through */
  passThrough?: PassThroughProtocol;
  /** the model's output cap from the catalog */
  maxOutputTokens?: number;
  /** whether the model reasons, from the catalog (absent: unknown); see CatalogModel.reasoning */
  modelReasoning?: boolean;
  /**
   * the request's stable prompt prefix key (a client's `prompt_cache_key`, or a hash of its system prompt, tools and
   * first cached messages): the channel that last served it is tried first (cache-sticky routing); absent: no preference
   */
  cacheAffinityKey?: string;
}

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
