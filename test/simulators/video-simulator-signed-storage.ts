// A loopback stand-in for the storage a video vendor's download redirects to (the Gemini files API answers
// `:download?alt=media` with 302 to a signed storage URL): another origin, no key needed. It records every request's
// headers, so tests prove the vendor key never reaches it, and serves the download faults that happen there.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomIdentifier } from './openai-simulator-text.js';
import type { VideoDownloadFault } from './video-simulator-outcome.js';

/** Bytes of an oversized video: over any cap a test sets, far under the default 2 GiB. */
export const oversizedVideoBytes = 512 * 1024;

/** One request the storage received. */
export interface SignedStorageRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** The running storage. */
export interface SignedVideoStorage {
  /** `http://127.0.0.1:<port>`: never a channel's origin */
  origin: string;
  requests: SignedStorageRequest[];
  /** a fresh signed URL for the vendor's file `fileId`, serving `bytes` with the fault (`break`, `break-once`, `oversize*` and `loop` happen here) */
  sign(fileId: string, bytes: Buffer, fault: VideoDownloadFault | undefined): string;
  close(): Promise<void>;
}

interface SignedFile {
  bytes: Buffer;
  fault: VideoDownloadFault | undefined;
  downloads: number;
}

/** Starts the storage on 127.0.0.1 and a free port. */
export async function startSignedVideoStorage(): Promise<SignedVideoStorage> {
  const files = new Map<string, SignedFile>();
  const requests: SignedStorageRequest[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://storage.invalid');
    requests.push({ path: url.pathname, headers: { ...request.headers } });
    request.resume();
    const loop = /^\/loop\/(\d+)$/.exec(url.pathname);
    if (loop) {
      response.writeHead(302, { location: `/loop/${Number(loop[1]) + 1}` });
      response.end();
      return;
    }
    const file =
      /^\/signed\/([A-Za-z0-9_-]+)$/.exec(url.pathname) && url.searchParams.get('signature')
        ? files.get(url.pathname.slice('/signed/'.length))
        : undefined;
    if (!file) {
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
      return;
    }
    file.downloads += 1;
    serveFile(response, file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    sign(fileId, bytes, fault) {
      if (fault === 'loop') return `${origin}/loop/0`;
      // One record per file, however often it is signed: `break-once` breaks the first download only.
      if (!files.has(fileId)) files.set(fileId, { bytes, fault, downloads: 0 });
      return `${origin}/signed/${fileId}?signature=${randomIdentifier()}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serveFile(response: ServerResponse, file: SignedFile): void {
  const breaks = file.fault === 'break' || (file.fault === 'break-once' && file.downloads === 1);
  if (breaks) {
    // Announces the whole file, sends half of it, then drops the connection.
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(file.bytes.length) });
    response.write(file.bytes.subarray(0, Math.floor(file.bytes.length / 2)), () =>
      setTimeout(() => response.socket?.destroy(), 20),
    );
    return;
  }
  if (file.fault === 'oversize' || file.fault === 'oversize-unannounced') {
    const headers: Record<string, string> = { 'content-type': 'video/mp4' };
    if (file.fault === 'oversize') headers['content-length'] = String(oversizedVideoBytes);
    response.writeHead(200, headers);
    response.end(Buffer.alloc(oversizedVideoBytes, 7));
    return;
  }
  response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(file.bytes.length) });
  response.end(file.bytes);
}
