// openVideoDownload and storeVideoDownload against plain loopback servers: redirects and the SSRF rules of remote
// images, the vendor's headers only on the vendor's origin, the size cap, free space, and no file from a broken body.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { openVideoDownload, type VideoDownloadOptions } from '../../src/dispatch/video/open-video-download.js';
import { createCheckedLookup } from '../../src/providers/remote-image/create-checked-lookup.js';
import { isFetchableAddress } from '../../src/providers/remote-image/is-fetchable-address.js';
import { createLocalFolderVideoStorage } from '../../src/tasks/local-folder-video-storage.js';
import { storeVideoDownload } from '../../src/tasks/store-video-download.js';
import type { VideoContentStorage } from '../../src/tasks/video-content-storage.js';

interface TestServer {
  origin: string;
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

async function startServer(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestServer> {
  const seen: TestServer['seen'] = [];
  const server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: { ...request.headers } });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const vendorKey = 'AIza-vendor-key-not-for-storage';
const videoBytes = Buffer.from('0000ftypisom-a-small-video');
let storage: TestServer;
let vendor: TestServer;
const vendorPool = new Agent();
const openPool = new Agent({
  connect: { lookup: createCheckedLookup((address) => isFetchableAddress(address, true)) },
});
const publicOnlyPool = new Agent({
  connect: { lookup: createCheckedLookup((address) => isFetchableAddress(address, false)) },
});

beforeAll(async () => {
  storage = await startServer((request, response) => {
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(videoBytes.length) });
    response.end(videoBytes);
  });
  vendor = await startServer((request, response) => {
    const url = request.url ?? '';
    if (url === '/files/same-origin-hop') return void response.writeHead(302, { location: '/files/direct' }).end();
    if (url === '/files/direct')
      return void response.writeHead(200, { 'content-length': String(videoBytes.length) }).end(videoBytes);
    if (url === '/files/to-storage')
      return void response.writeHead(302, { location: `${storage.origin}/signed/abc?signature=1` }).end();
    if (url === '/files/to-localhost-name')
      return void response
        .writeHead(307, { location: `${storage.origin.replace('127.0.0.1', 'localhost')}/signed/abc` })
        .end();
    if (url === '/files/to-metadata')
      return void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (url === '/files/to-file-scheme') return void response.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (url.startsWith('/files/hops-')) {
      const left = Number(url.slice('/files/hops-'.length));
      return void response.writeHead(302, { location: left === 0 ? '/files/direct' : `/files/hops-${left - 1}` }).end();
    }
    response.writeHead(404).end();
  });
});

afterAll(async () => {
  await vendor.close();
  await storage.close();
  await Promise.all([vendorPool.close(), openPool.close(), publicOnlyPool.close()]);
});

function options(overrides: Partial<VideoDownloadOptions> = {}): VideoDownloadOptions {
  return {
    dispatch: { dispatcher: vendorPool, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 },
    redirectDispatcher: openPool,
    isAddressAllowed: (address) => isFetchableAddress(address, true),
    maxBytes: 1024,
    ...overrides,
  };
}

function vendorRequest(pathname: string) {
  return {
    method: 'GET' as const,
    url: `${vendor.origin}${pathname}`,
    headers: { 'x-goog-api-key': vendorKey, authorization: `Bearer ${vendorKey}` },
  };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('openVideoDownload', () => {
  it('follows a 302 to another origin without any vendor header, and reads the video there', async () => {
    storage.seen.length = 0;
    const opened = await openVideoDownload(vendorRequest('/files/to-storage'), vendor.origin, options());
    if (opened.kind !== 'opened') throw new Error(`expected opened, got ${JSON.stringify(opened)}`);
    expect(opened.redirects).toBe(1);
    expect(opened.length).toBe(videoBytes.length);
    expect(await readAll(opened.body)).toEqual(videoBytes);
    expect(storage.seen).toHaveLength(1);
    expect(JSON.stringify(storage.seen[0]!.headers)).not.toContain(vendorKey);
    expect(vendor.seen.at(-1)!.headers['x-goog-api-key']).toBe(vendorKey);
  });

  it('keeps the vendor headers on a redirect within the vendor origin', async () => {
    const opened = await openVideoDownload(vendorRequest('/files/same-origin-hop'), vendor.origin, options());
    if (opened.kind !== 'opened') throw new Error('expected opened');
    await readAll(opened.body);
    expect(vendor.seen.at(-1)).toMatchObject({ path: '/files/direct', headers: { 'x-goog-api-key': vendorKey } });
  });

  it('follows three redirects and refuses a fourth', async () => {
    const three = await openVideoDownload(vendorRequest('/files/hops-2'), vendor.origin, options());
    expect(three).toMatchObject({ kind: 'opened', redirects: 3 });
    if (three.kind === 'opened') await readAll(three.body);
    expect(await openVideoDownload(vendorRequest('/files/hops-3'), vendor.origin, options())).toMatchObject({
      kind: 'failed',
      reason: 'too-many-redirects',
      retryable: true,
    });
  });

  it('refuses redirect targets on non-public addresses unless private addresses are allowed (the remote image rules)', async () => {
    const publicOnly = options({
      redirectDispatcher: publicOnlyPool,
      isAddressAllowed: (address) => isFetchableAddress(address, false),
    });
    storage.seen.length = 0;
    // An IP literal is judged before connecting; a name is judged by the pool's lookup when it connects.
    expect(await openVideoDownload(vendorRequest('/files/to-storage'), vendor.origin, publicOnly)).toMatchObject({
      kind: 'failed',
      reason: 'refused-address',
      retryable: false,
    });
    expect(await openVideoDownload(vendorRequest('/files/to-localhost-name'), vendor.origin, publicOnly)).toMatchObject(
      { kind: 'failed', reason: 'refused-address', retryable: false },
    );
    expect(storage.seen).toHaveLength(0);
    // The link-local metadata service (169.254.169.254) is one of the refused addresses.
    expect(await openVideoDownload(vendorRequest('/files/to-metadata'), vendor.origin, publicOnly)).toMatchObject({
      kind: 'failed',
      reason: 'refused-address',
    });
  });

  it('refuses a redirect to a non-http scheme and reports a vendor 404 as retryable', async () => {
    expect(await openVideoDownload(vendorRequest('/files/to-file-scheme'), vendor.origin, options())).toMatchObject({
      kind: 'failed',
      reason: 'bad-redirect',
    });
    expect(await openVideoDownload(vendorRequest('/files/missing'), vendor.origin, options())).toMatchObject({
      kind: 'failed',
      reason: 'status',
      retryable: true,
    });
  });

  it('refuses a video whose Content-Length is over the cap before reading it', async () => {
    expect(
      await openVideoDownload(
        vendorRequest('/files/direct'),
        vendor.origin,
        options({ maxBytes: videoBytes.length - 1 }),
      ),
    ).toMatchObject({ kind: 'failed', reason: 'too-large', retryable: false });
  });

  it('reports an unreachable vendor as retryable', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    expect(
      await openVideoDownload(
        { method: 'GET', url: `${closed.origin}/files/x`, headers: {} },
        closed.origin,
        options(),
      ),
    ).toMatchObject({ kind: 'failed', reason: 'unreachable', retryable: true });
  });
});

describe('storeVideoDownload', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'video-download-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const opened = (body: Readable, length: number | undefined) => ({
    kind: 'opened' as const,
    body,
    length,
    contentType: 'video/mp4',
    redirects: 0,
  });

  it('stores a whole video', async () => {
    const outcome = await storeVideoDownload(opened(Readable.from([videoBytes]), videoBytes.length), 'whole.mp4', {
      storage: createLocalFolderVideoStorage(folder),
      maxBytes: 1024,
    });
    expect(outcome).toEqual({ kind: 'stored', bytes: videoBytes.length });
  });

  it('stops a body without Content-Length once it passes the cap, leaving no file', async () => {
    const outcome = await storeVideoDownload(
      opened(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), undefined),
      'big.mp4',
      { storage: createLocalFolderVideoStorage(folder), maxBytes: 1024 },
    );
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'too-large', retryable: false });
    expect((await readdir(folder)).filter((name) => name.startsWith('big'))).toEqual([]);
  });

  it('fails a body that ends short of its Content-Length, or errors halfway, leaving no file', async () => {
    const short = await storeVideoDownload(opened(Readable.from([Buffer.alloc(10)]), 20), 'short.mp4', {
      storage: createLocalFolderVideoStorage(folder),
      maxBytes: 1024,
    });
    expect(short).toMatchObject({ kind: 'failed', reason: 'broken', retryable: true });
    const breaking = new Readable({ read() {} });
    breaking.push(Buffer.alloc(10));
    setImmediate(() => breaking.destroy(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })));
    const broken = await storeVideoDownload(opened(breaking, 20), 'broken.mp4', {
      storage: createLocalFolderVideoStorage(folder),
      maxBytes: 1024,
    });
    expect(broken).toMatchObject({ kind: 'failed', reason: 'broken', retryable: true });
    expect((await readdir(folder)).filter((name) => name.startsWith('short') || name.startsWith('broken'))).toEqual([]);
  });

  it('does not start writing when the folder lacks the free space, and destroys the body', async () => {
    let written = false;
    const full: VideoContentStorage = {
      write: async () => {
        written = true;
        return 0;
      },
      open: async () => undefined,
      remove: async () => undefined,
      freeBytes: async () => 1_000,
    };
    const body = Readable.from([videoBytes]);
    const outcome = await storeVideoDownload(opened(body, videoBytes.length), 'full.mp4', {
      storage: full,
      maxBytes: 1024,
    });
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'no-space', retryable: true });
    expect(written).toBe(false);
    expect(body.destroyed).toBe(true);
  });

  it('reads the real free space of the folder', async () => {
    expect(await createLocalFolderVideoStorage(folder).freeBytes()).toBeGreaterThan(0);
  });
});
