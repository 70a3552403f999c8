import type { Readable } from 'node:stream';
import type { ChatStreamPart } from '../core/chat-stream-part.js';
import type { ChatCompletionRequest } from '../core/openai-chat-request.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { FetchRemoteImage } from './remote-image/remote-image.js';
import type { UpstreamAttemptResult } from './upstream-attempt-result.js';

/** The parts of a channel an adapter needs. */
export interface VendorChannel {
  /** base URL without a trailing slash */
  baseUrl: string;
  /** decrypted secret; for AWS `<access key id>:<secret access key>` */
  secret: string;
  /** protocol-specific settings, e.g. `apiVersion`, `region` */
  settings: Readonly<Record<string, string>>;
}

/** One translated call: where it goes and what the model allows. */
export interface VendorCall {
  channel: VendorChannel;
  /** the model name the vendor expects */
  upstreamModelId: string;
  /** the public model id the client asked for, echoed in OpenAI responses */
  publicModelId: string;
  /** the model's output cap from the catalog, used where the vendor requires `max_tokens` */
  maxOutputTokens: number | undefined;
  stream: boolean;
  /** Unix milliseconds */
  clock: () => number;
  /**
   * fetches an http(s) image URL (address-checked, size- and time-limited, cancelled with the attempt) for vendors
   * that take image bytes only; absent, such vendors refuse image URLs with a 400
   */
  fetchRemoteImage?: FetchRemoteImage;
}

/** An HTTP request ready to send to a vendor. */
export interface VendorHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** OpenAI's `chat.completion` object, as a translated response must look. */
export interface ChatCompletionObject {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> };
    logprobs: null;
    finish_reason: string;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number }; completion_tokens_details?: { reasoning_tokens: number } };
}

/** OpenAI's embeddings response. */
export interface EmbeddingListObject {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** The validated fields of an embeddings request. */
export interface EmbeddingRequestFields {
  model: string;
  input: string | string[] | number[] | number[][];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
}

/**
 * A vendor protocol the gateway translates OpenAI requests to. `encode*` may throw a 400 GatewayError
 * naming a parameter the vendor cannot honour (never silently drop what changes the answer).
 */
export interface ChatAdapter {
  /** the channel `protocol` value this adapter serves */
  protocol: string;
  encodeChatRequest(request: ChatCompletionRequest, call: VendorCall): VendorHttpRequest | Promise<VendorHttpRequest>;
  decodeChatResponse(bodyText: string, call: VendorCall): { completion: ChatCompletionObject; usage: TokenUsage | undefined };
  decodeChatStream(body: Readable, call: VendorCall): AsyncIterable<ChatStreamPart>;
  /** maps a non-2xx vendor answer; only a redacted vendor message may reach the client */
  mapFailure(status: number, bodyText: string, retryAfter: string | undefined): UpstreamAttemptResult<never>;
  /** present when the vendor serves embeddings */
  embeddings?: {
    encode(request: EmbeddingRequestFields, call: VendorCall): VendorHttpRequest | Promise<VendorHttpRequest>;
    decode(bodyText: string, request: EmbeddingRequestFields, call: VendorCall): { response: EmbeddingListObject; usage: TokenUsage | undefined };
  };
}
