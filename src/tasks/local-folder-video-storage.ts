import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StoredVideoFile, VideoContentStorage } from './video-content-storage.js';

const safeKeyPattern = /^[A-Za-z0-9_.-]+$/;

/** Videos as files in one folder (GATEWAY_VIDEO_STORAGE_DIR); a file appears whole or not at all (written, then renamed). */
export function createLocalFolderVideoStorage(folder: string): VideoContentStorage {
  const fileOf = (key: string): string => {
    // Keys are made by the task layer; refusing anything else keeps a key from ever naming a file outside the folder.
    if (!safeKeyPattern.test(key) || key.startsWith('.')) throw new Error(`unsafe video storage key ${key}`);
    return path.join(folder, key);
  };
  return {
    async write(key, body: Readable) {
      await mkdir(folder, { recursive: true });
      const file = fileOf(key);
      const partial = `${file}.partial`;
      try {
        await pipeline(body, createWriteStream(partial));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return (await stat(file)).size;
    },
    async open(key): Promise<StoredVideoFile | undefined> {
      const file = fileOf(key);
      const info = await stat(file).catch(() => undefined);
      if (info === undefined || !info.isFile()) return undefined;
      return { body: createReadStream(file), length: info.size };
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    async freeBytes() {
      await mkdir(folder, { recursive: true });
      // `bavail`: blocks an unprivileged writer may still use (`bfree` counts root's reserve too).
      const info = await statfs(folder);
      return info.bavail * info.bsize;
    },
  };
}
