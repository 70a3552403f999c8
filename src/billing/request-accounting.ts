import type { AnswerUsage } from '../core/answer-usage.js';
import type { RequestEstimate } from '../core/request-estimate.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { CatalogModel } from '../routing/catalog-model.js';
import type { KeyPrincipal } from '../routing/routing-table.js';
import type { DocumentPageCounts } from './estimate-document-pages.js';
import type { RefusedRequest } from './refused-request-counter.js';

/** The /v1 endpoint a request used; also the usage log's `endpoint` value. */
export type MeteredEndpoint =
  | 'chat.completions'
  | 'completions'
  | 'embeddings'
  | 'images.generations'
  | 'images.edits'
  | 'audio.transcriptions'
  /** OpenAI text-to-speech (`POST /v1/audio/speech`) */
  | 'audio.speech'
  /** OpenAI moderations (`POST /v1/moderations`) */
  | 'moderations'
  /** OpenAI Responses (`POST /v1/responses`) */
  | 'responses'
  /** Anthropic Messages (`POST /v1/messages`) */
  | 'messages';

/** What accounting needs to know before a request goes upstream. */
export interface MeteredRequest {
  principal: KeyPrincipal;
  model: CatalogModel;
  endpoint: MeteredEndpoint;
  /** what the request asks for, estimated once by its client protocol: billing never reads a request body (ADR 0021) */
  estimate: RequestEstimate;
  /** page counts of the estimate's inline PDFs, made after checkBeforeBody within the decompression budget (see estimateDocumentPages) */
  documentPages?: DocumentPageCounts;
  /** bytes of uploaded files, for size-based estimates (audio) */
  uploadedBytes: number;
  /** seconds of uploaded audio when the gateway could read it from the file, else undefined */
  uploadedAudioSeconds: number | undefined;
  streamed: boolean;
  clientIp: string;
  /** the request's `x-request-id`, kept on its usage log (absent in unit tests that build requests by hand) */
  requestId?: string;
  /** Unix milliseconds */
  receivedAt: number;
  /**
   * for a request using a price-changing field the operator enabled (`service_tier`, `web_search_options`, ...):
   * channel id -> that channel's premium price ratio in millionths; billing holds at the highest and settles at the
   * serving channel's
   */
  premiumPriceRatios?: ReadonlyMap<string, number>;
  /** the longest prompt-cache TTL a Messages request asks for (`cache_control.ttl`); `one-hour` holds its input at the 1-hour write price */
  promptCacheTtl?: PromptCacheTtl;
}

/** The prompt-cache TTLs Anthropic writes at, each with its own price: 5 minutes (the default) and 1 hour. */
export type PromptCacheTtl = 'five-minutes' | 'one-hour';

/** How a forwarded request ended, as accounting sees it. */
export interface MeteredResult {
  channelId: string | undefined;
  /** HTTP status the client received (499 when it went away first) */
  status: number;
  errorCode: string | undefined;
  usage: TokenUsage | undefined;
  /** text generated before a stream ended without usage, for counting with a tokenizer */
  generatedText: string | undefined;
  /** Unix milliseconds of the first byte to the client */
  firstByteAt: number | undefined;
  /** Unix milliseconds when the response ended */
  finishedAt: number;
  clientAborted: boolean;
  /** true once the request was sent to a vendor, which may then bill it: a client that left is charged at least the estimated input (absent: false) */
  sentUpstream?: boolean;
  /** true when the vendor worked on the request but its usage cannot be had (a stream its client left, cut before its usage): it is charged its hold (absent: false) */
  usageUnknown?: boolean;
  /**
   * what the vendor's successful non-streamed answer showed besides its token usage (images returned, a transcription's
   * duration or tokens, the text of an answer without usage), read once by the edge that read it; undefined without one
   */
  answerUsage: AnswerUsage | undefined;
  /** told the request's cost in micro-units once it is settled (within `close` unless a tokenizer count is needed); for its trace span */
  onSettled?: ((costInMicroUnits: number) => void) | undefined;
}

/** What is known of a /v1 request before its body is read. */
export interface EarlyRequest {
  principal: KeyPrincipal;
  clientIp: string;
  /** Unix milliseconds */
  receivedAt: number;
}

/** A request admitted by accounting; handed back on close. */
export interface MeteredTicket {
  /** headers for the client's response, e.g. `x-ratelimit-*` */
  responseHeaders: Record<string, string>;
}

/**
 * The seam between the request path and money: `open` reserves the worst-case cost and rate-limit slots
 * (or throws a 429 GatewayError without calling any upstream); `close` settles the real cost, releases
 * the rest, and records the usage log entry. `close` is called exactly once per opened ticket and never throws.
 */
export interface RequestAccounting {
  /** The ticket at once when admission has nothing to wait for (a refusal then throws at once), else a promise of it. */
  open(request: MeteredRequest): MeteredTicket | Promise<MeteredTicket>;
  close(ticket: MeteredTicket, result: MeteredResult): void;
  /**
   * Before the body is read: throws the error `open` would (403, 429 `insufficient_quota`, 429 rate limit) when
   * the request is sure to be refused whatever its body, so a large upload is refused unread. Takes no slot.
   */
  checkBeforeBody(request: EarlyRequest): Promise<void>;
  /**
   * Admits a request that costs nothing but still uses the gateway and a vendor (Messages `count_tokens`): refuses as
   * checkBeforeBody does (403, 429 `insufficient_quota` for a key that cannot pay, 429 rate limit), then takes one
   * request of the key's and user's rate limits (requests per minute, concurrency), given back by `release`.
   */
  admitUnbilled(request: EarlyRequest): Promise<UnbilledAdmission>;
  /** Counts a request the server refused before admission (the per-user in-flight cap) with the other refusals. */
  countRefusal(refusal: RefusedRequest): void;
}

/** A free request admitted by accounting. */
export interface UnbilledAdmission {
  /** headers for the client's response, e.g. `x-ratelimit-*` */
  responseHeaders: Record<string, string>;
  /** gives the concurrency slot back; call once the response ended (later calls do nothing) */
  release(): void;
}

/** Accounting that admits everything and records nothing; for wiring tests of other layers. */
export function createUnmeteredAccounting(): RequestAccounting {
  return {
    open: () => ({ responseHeaders: {} }),
    close: () => undefined,
    checkBeforeBody: async () => undefined,
    admitUnbilled: async () => ({ responseHeaders: {}, release: () => undefined }),
    countRefusal: () => undefined,
  };
}
