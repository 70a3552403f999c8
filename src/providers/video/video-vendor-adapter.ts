import type { FormData } from 'undici';
import type { UpstreamAttemptResult } from '../upstream-attempt-result.js';
import type { VendorChannel } from '../vendor-adapter.js';

/** What the gateway asks a video vendor to make, already mapped to what that vendor can make. */
export interface VideoGenerationJob {
  /** the model name the vendor expects */
  upstreamModelId: string;
  prompt: string;
  /** a length the vendor makes for this model (see VideoVendorAdapter.supportedSeconds) */
  seconds: number;
  /** pixels */
  width: number;
  /** pixels */
  height: number;
}

/** An HTTP request ready to send to a video vendor (Sora's create is multipart). */
export interface VideoVendorRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/** Where a vendor's job stands, as one poll saw it. */
export type VideoVendorStatus =
  /** `progress` 0–99, null when the vendor gives none */
  | { state: 'queued' | 'in-progress'; progress: number | null }
  /** `seconds`: the length really generated; `contentReference`: what encodeDownload needs (vendor id or URI), never shown */
  | { state: 'completed'; seconds: number; contentReference: string }
  /** `code`: a short machine code (e.g. `content_filtered`, `vendor_failed`); `message` is safe to show */
  | { state: 'failed'; code: string; message: string };

/**
 * One video vendor's wire protocol (OpenAI Sora, Google Veo, ...), as pure request building and answer reading:
 * dispatch sends the requests. Adding a vendor (Kling, Hailuo, Wan) is one more folder implementing this.
 */
export interface VideoVendorAdapter {
  /** the channel protocol whose channels serve this vendor's video models */
  protocol: string;
  /** the lengths (seconds) the vendor makes for the model; the gateway maps a requested duration to the nearest */
  supportedSeconds(upstreamModelId: string): readonly number[];
  /** the sizes the vendor makes for the model, e.g. `{width: 720, height: 1280}` for portrait */
  supportedSizes(upstreamModelId: string): ReadonlyArray<{ width: number; height: number }>;
  encodeSubmit(job: VideoGenerationJob, channel: VendorChannel): VideoVendorRequest;
  /** reads the vendor's job id from a 2xx submit answer; throws when it has none */
  decodeSubmit(bodyText: string): { vendorTaskId: string };
  encodePoll(vendorTaskId: string, channel: VendorChannel): VideoVendorRequest;
  /** reads a 2xx poll answer */
  decodePoll(bodyText: string, job: VideoGenerationJob): VideoVendorStatus;
  /** the request that streams the finished video (`variant` as OpenAI's `video` | `thumbnail` | `spritesheet`) */
  encodeDownload(
    contentReference: string,
    channel: VendorChannel,
    variant: 'video' | 'thumbnail' | 'spritesheet',
  ): VideoVendorRequest | undefined;
  /** cancels a job at the vendor when it can (absent: the vendor has no cancel) */
  encodeCancel?(vendorTaskId: string, channel: VendorChannel): VideoVendorRequest;
  /** maps a non-2xx vendor answer; only a redacted vendor message may reach the client */
  mapFailure(status: number, bodyText: string, retryAfter: string | undefined): UpstreamAttemptResult<never>;
}
