import type { SpeechRequestFields } from '../core/speech-request.js';
import type { Readable } from 'node:stream';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import type { CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';
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
  /** the public model id the client asked for */
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
 * A vendor protocol the gateway translates to: it encodes from the gateway's canonical request and decodes into
 * canonical stream parts (a non-streamed answer too: dispatch folds the parts with foldStreamParts). `encodeRequest`
 * may throw a 400 GatewayError naming a parameter the vendor cannot honour (never silently drop what changes the
 * answer). A vendor artefact (signature) is sent back only to the vendor family that produced it.
 */
export interface VendorAdapter {
  /** the channel `protocol` value this adapter serves */
  protocol: string;
  encodeRequest(request: CanonicalRequest, call: VendorCall): VendorHttpRequest | Promise<VendorHttpRequest>;
  /** the parts a non-streamed answer describes; throws on a body it cannot read */
  decodeResponse(bodyText: string, call: VendorCall): CanonicalStreamPart[];
  decodeStream(body: Readable, call: VendorCall): AsyncIterable<CanonicalStreamPart>;
  /** maps a non-2xx vendor answer; only a redacted vendor message may reach the client */
  mapFailure(status: number, bodyText: string, retryAfter: string | undefined): UpstreamAttemptResult<never>;
  /** present when the vendor serves embeddings */
  embeddings?: {
    encode(request: EmbeddingRequestFields, call: VendorCall): VendorHttpRequest | Promise<VendorHttpRequest>;
    decode(
      bodyText: string,
      request: EmbeddingRequestFields,
      call: VendorCall,
    ): { response: EmbeddingListObject; usage: TokenUsage | undefined };
  };
  /** present when the vendor serves text to speech (`POST /v1/audio/speech`) */
  speech?: {
    /** may throw a 400 GatewayError naming a field the vendor cannot honour (a format it cannot produce) */
    encode(request: SpeechRequestFields, call: VendorCall): VendorHttpRequest | Promise<VendorHttpRequest>;
    /** the audio in the asked format, its Content-Type and the vendor's usage; throws on an answer without audio */
    decode(
      bodyText: string,
      request: SpeechRequestFields,
      call: VendorCall,
    ): { audio: Uint8Array; contentType: string; usage: TokenUsage | undefined };
  };
}
