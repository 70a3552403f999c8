import type { Readable } from 'node:stream';

/** A stored file opened for reading. */
export interface StoredVideoFile {
  body: Readable;
  /** bytes */
  length: number;
}

/**
 * Where finished videos are kept (a local folder by default); keys are opaque strings the task row keeps, so another
 * backend (object storage) can come later without touching the task layer.
 */
export interface VideoContentStorage {
  /** stores the whole stream under `key` (replacing any earlier file); resolves with the bytes written; on a failure no file (whole or partial) is left */
  write(key: string, body: Readable): Promise<number>;
  /** the file under `key`, or undefined when there is none */
  open(key: string): Promise<StoredVideoFile | undefined>;
  /** removes the file under `key`; no error when it is already gone */
  remove(key: string): Promise<void>;
  /** bytes still free for new videos (the folder's file system as `statfs` sees it); undefined when unknown */
  freeBytes(): Promise<number | undefined>;
}
