import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OpenedVideoDownload } from '../dispatch/video/open-video-download.js';
import { discardUpstreamBody } from '../dispatch/release-upstream-body.js';
import type { VideoContentStorage } from './video-content-storage.js';

/** Free space left over on the storage folder after a download, in bytes, so a video never fills the disk to the brim. */
export const videoStorageReserveBytes = 64 * 1024 * 1024;

/** How storing a download ended: stored whole, or not at all (`retryable` false: the video can never be stored). */
export type VideoStoringOutcome =
  | { kind: 'stored'; bytes: number }
  | { kind: 'failed'; reason: 'too-large' | 'no-space' | 'broken'; retryable: boolean; detail: string };

/**
 * Streams an opened download into storage under `key`, within `maxBytes` (checked again while streaming: the
 * Content-Length may be absent or wrong) and only when the storage folder has room for it. A download that breaks
 * halfway, ends short of its Content-Length, passes the cap, or meets a full disk leaves no file (the storage removes
 * its partial file) and is reported, never stored; the body is always consumed or destroyed.
 */
export async function storeVideoDownload(
  download: OpenedVideoDownload,
  key: string,
  options: { storage: VideoContentStorage; maxBytes: number },
): Promise<VideoStoringOutcome> {
  const { storage, maxBytes } = options;
  // Whatever happens below, an error the body raises late (after the pipeline let go of it) has a listener.
  download.body.on('error', () => undefined);
  let free: number | undefined;
  try {
    free = await storage.freeBytes();
  } catch (error) {
    discardUpstreamBody(download.body);
    return {
      kind: 'failed',
      reason: 'no-space',
      retryable: true,
      detail: `the free space of the video storage could not be read: ${describe(error)}`,
    };
  }
  const needed = (download.length ?? 0) + videoStorageReserveBytes;
  if (free !== undefined && free < needed) {
    discardUpstreamBody(download.body);
    return {
      kind: 'failed',
      reason: 'no-space',
      retryable: true,
      detail: `the video storage has ${free} bytes free, ${needed} are needed`,
    };
  }
  const limiter = new ByteLimit(maxBytes, download.length);
  // Both halves settle before the outcome is read: the storage's removal of a partial file is then done.
  const [reading, writing] = await Promise.allSettled([
    pipeline(download.body, limiter),
    storage.write(key, limiter).catch((error: unknown) => {
      // A write that failed before reading all of it (a bad key, a full disk) must not leave the download hanging.
      limiter.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }),
  ]);
  if (reading.status === 'fulfilled' && writing.status === 'fulfilled') return { kind: 'stored', bytes: writing.value };
  discardUpstreamBody(download.body);
  if (limiter.overLimit)
    return {
      kind: 'failed',
      reason: 'too-large',
      retryable: false,
      detail: `the video passed the cap of ${maxBytes} bytes while streaming`,
    };
  const error =
    writing.status === 'rejected' ? writing.reason : reading.status === 'rejected' ? reading.reason : undefined;
  return {
    kind: 'failed',
    reason: 'broken',
    retryable: true,
    detail: `the download broke off after ${limiter.bytes} bytes: ${describe(error)}`,
  };
}

/** Passes bytes through up to a cap, and fails a stream that ends short of the length its answer declared. */
class ByteLimit extends Transform {
  /** bytes passed so far */
  bytes = 0;
  /** true once the cap was passed */
  overLimit = false;

  constructor(
    private readonly maxBytes: number,
    private readonly declaredLength: number | undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.maxBytes) {
      this.overLimit = true;
      callback(new Error(`the video is larger than ${this.maxBytes} bytes`));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.declaredLength !== undefined && this.bytes !== this.declaredLength) {
      callback(new Error(`the video ended after ${this.bytes} of the ${this.declaredLength} bytes announced`));
      return;
    }
    callback();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${error.message} (${code})` : error.message;
}
