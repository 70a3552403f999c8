/** What kind of endpoint a model serves. */
/** `any` marks a model the catalog does not know: the vendor decides which endpoints it serves. */
export type ModelKind =
  | 'chat'
  | 'completion'
  | 'embedding'
  | 'image'
  | 'audio'
  | 'video'
  /** text to speech (`POST /v1/audio/speech`) */
  | 'speech'
  /** content classification (`POST /v1/moderations`) */
  | 'moderation'
  | 'any';

/** Input a model accepts besides text. */
export type InputModality = 'text' | 'image' | 'audio';

/** A vendor's public list prices, in integer micro-units of the currency (1 unit = 1,000,000 micro-units). */
export interface ModelPrices {
  /** per million input tokens not served from the prompt cache */
  inputPerMillion: number;
  /** per million input tokens read from the prompt cache */
  cachedInputPerMillion?: number;
  /** per million input tokens written to the prompt cache (Anthropic-style explicit caching, 5-minute TTL) */
  cacheWritePerMillion?: number;
  /** per million input tokens written to the prompt cache with a 1-hour TTL (Anthropic `cache_control.ttl: "1h"`) */
  cacheWriteOneHourPerMillion?: number;
  /** per million output tokens, reasoning included */
  outputPerMillion: number;
  /** per generated image, keyed `<width>x<height>:<quality>` (e.g. `1024x1024:hd`) */
  perImage?: Record<string, number>;
  /** per minute of transcribed audio */
  perAudioMinute?: number;
  /** per second of generated video */
  perVideoSecond?: number;
}

/** One model the gateway knows about, from the built-in catalog or an operator's override. */
export interface CatalogModel {
  /** the id clients put in `model` */
  id: string;
  /** vendor label shown as `owned_by` */
  ownedBy: string;
  kind: ModelKind;
  /** release time, Unix seconds, shown as `created` */
  created: number;
  /** context window in tokens, when known */
  contextWindow?: number;
  /** most output tokens per request, when known */
  maxOutputTokens?: number;
  /**
   * true when the model reasons (takes a reasoning effort or thinking budget), false when it cannot (a reasoning
   * control is then refused, or dropped where the client's protocol makes it optional); absent when the catalog does
   * not say (the vendor judges)
   */
  reasoning?: boolean;
  /** input kinds accepted; image parts are refused for models without `image` */
  inputModalities: InputModality[];
  /** `<width>x<height>` sizes an image model accepts; absent means any size the vendor accepts */
  imageSizes?: string[];
  /** true when the image model supports /v1/images/edits */
  supportsImageEdits?: boolean;
  /** other ids that name this same model, e.g. `claude-3-5-sonnet-latest` for a date-pinned snapshot; resolved by the catalog */
  aliases?: string[];
  /** set on the entry the catalog returns for an alias: the pinned id it names, whose operator price it is billed at */
  aliasOf?: string;
  /** the vendor's public list prices when the catalog was written; operators' prices take precedence */
  defaultPrices?: ModelPrices;
  /** most images one request may ask for (`n`), when the vendor limits it */
  maxImagesPerRequest?: number;
  /** video lengths in seconds a video model accepts */
  videoDurations?: number[];
  /** for a video model: the vendor's model name this public id means (`sora-2` for `sora-2-landscape`); absent: the id */
  videoUpstreamModelId?: string;
  /** for a video model: which way up it renders; the spec's `X-landscape` twin is `landscape` */
  videoOrientation?: 'portrait' | 'landscape';
  /** for a speech model: its built-in voices (a custom voice `{id}` is the vendor's to judge) */
  speechVoices?: string[];
  /**
   * for a speech model its vendor bills per input character (tts-1): its input price is then per million characters
   * and its input is counted in characters; absent: per text token
   */
  speechInputUnit?: 'characters';
}

/** What dispatch fits a request to: the output cap and reasoning of the model a channel actually sends it to. */
export type ModelLimits = Pick<CatalogModel, 'maxOutputTokens' | 'reasoning'>;
