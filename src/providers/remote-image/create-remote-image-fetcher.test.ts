import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ResolveHostname } from './create-checked-lookup.js';
import { createRemoteImageFetcher, type RemoteImageFetcherOptions } from './create-remote-image-fetcher.js';
import { isFetchableAddress } from './is-fetchable-address.js';
import type { RemoteImageFetcher } from './remote-image.js';

// A 1×1 PNG.
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const param = 'messages[1].content[0].image_url.url';
const maxBytes = 1024;

// Names the tests resolve without DNS: one to the server's loopback address, one to another loopback address.
const resolveTestNames: ResolveHostname = async (hostname) => {
  if (hostname === 'images.example.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'rebound.example.test') return [{ address: '127.0.0.2', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let server: Server;
let port = 0;
const fetchers: RemoteImageFetcher[] = [];

function startFetcher(
  options: Partial<RemoteImageFetcherOptions> & { allowPrivateAddresses?: boolean } = {},
): RemoteImageFetcher {
  const fetcher = createRemoteImageFetcher({
    isAddressAllowed: (address) => isFetchableAddress(address, options.allowPrivateAddresses ?? false),
    maxBytes,
    timeoutMs: 2_000,
    resolveHostname: resolveTestNames,
    ...options,
  });
  fetchers.push(fetcher);
  return fetcher;
}

async function refusal(fetcher: RemoteImageFetcher, url: string, signal?: AbortSignal): Promise<GatewayError> {
  const error = await fetcher.fetchImage({ url, param, ...(signal ? { signal } : {}) }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  expect(error.code).toBe('invalid_request_error');
  expect(error.status).toBe(400);
  expect(error.param).toBe(param);
  return error;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/pixel.png')
      return void response.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(pixel);
    if (url.pathname === '/page.html')
      return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    if (url.pathname === '/declared-large.png')
      return void response
        .writeHead(200, { 'content-type': 'image/png', 'content-length': String(maxBytes + 1) })
        .end(Buffer.alloc(maxBytes + 1));
    if (url.pathname === '/streamed-large.png') {
      // No content-length: the limit must stop the read itself.
      response.writeHead(200, { 'content-type': 'image/png' });
      for (let index = 0; index < 8; index++) response.write(Buffer.alloc(512));
      return void response.end();
    }
    if (url.pathname === '/missing.png')
      return void response.writeHead(404, { 'content-type': 'text/plain' }).end('no');
    if (url.pathname === '/hang.png') return; // never answers
    if (url.pathname === '/redirect')
      return void response.writeHead(302, { location: url.searchParams.get('to') ?? '' }).end();
    if (chain) {
      const left = Number(chain[1]);
      return void response.writeHead(301, { location: left > 0 ? `/chain/${left - 1}` : '/pixel.png' }).end();
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(fetchers.map((fetcher) => fetcher.close()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('createRemoteImageFetcher', () => {
  it('refuses a loopback URL by default, given as a literal address or as a name resolving to one', async () => {
    const fetcher = startFetcher();
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/pixel.png`)).message).toMatch(/non-public address/);
    expect((await refusal(fetcher, `http://[::1]:${port}/pixel.png`)).message).toMatch(/non-public address/);
    expect((await refusal(fetcher, `http://[::ffff:127.0.0.1]:${port}/pixel.png`)).message).toMatch(
      /non-public address/,
    );
    // 2130706433 is 127.0.0.1 written as one number; the URL parser turns it into the dotted form.
    expect((await refusal(fetcher, `http://2130706433:${port}/pixel.png`)).message).toMatch(/non-public address/);
    const byName = await refusal(fetcher, `http://images.example.test:${port}/pixel.png`);
    expect(byName.message).toMatch(/could not be reached, or is not a public address/);
    // Nothing about the resolved address or the resolver reaches the client.
    expect(byName.message).not.toContain('127.0.0.1');
  });

  it('fetches a PNG when private addresses are allowed, by address and by name', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true });
    expect(await fetcher.fetchImage({ url: `http://127.0.0.1:${port}/pixel.png`, param })).toEqual({
      mediaType: 'image/png',
      base64: pixel.toString('base64'),
    });
    expect(await fetcher.fetchImage({ url: `http://images.example.test:${port}/pixel.png`, param })).toEqual({
      mediaType: 'image/png',
      base64: pixel.toString('base64'),
    });
  });

  it('refuses a body larger than the limit, whether declared or only streamed', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true });
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/declared-large.png`)).message).toBe(
      `The image at this URL is larger than ${maxBytes} bytes.`,
    );
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/streamed-large.png`)).message).toBe(
      `The image at this URL is larger than ${maxBytes} bytes.`,
    );
  });

  it('refuses the images of one request once together they exceed the limit', async () => {
    const fetchForRequest = startFetcher({ allowPrivateAddresses: true, maxBytes: pixel.length * 2 }).forRequest(
      new AbortController().signal,
    );
    const url = `http://127.0.0.1:${port}/pixel.png`;
    await fetchForRequest({ url, param });
    await fetchForRequest({ url, param });
    const third = await fetchForRequest({ url, param: 'messages[0].content[2].image_url.url' }).catch(
      (error: unknown) => error,
    );
    expect(third).toBeInstanceOf(GatewayError);
    expect((third as GatewayError).message).toBe(
      `The images at URLs in this request add up to more than ${pixel.length * 2} bytes.`,
    );
    expect((third as GatewayError).param).toBe('messages[0].content[2].image_url.url');
  });

  it('refuses a content type other than PNG, JPEG, GIF or WebP, and an error status', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true });
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/page.html`)).message).toMatch(
      /'text\/html'; only PNG, JPEG, GIF and WebP/,
    );
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/missing.png`)).message).toBe(
      'The image URL answered with HTTP status 404.',
    );
  });

  it('gives up on a server slower than the timeout', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true, timeoutMs: 200 });
    const startedAt = Date.now();
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/hang.png`)).message).toBe(
      'The image URL did not answer within 200 ms.',
    );
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('stops when the request is cancelled', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 50);
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/hang.png`, cancel.signal)).message).toMatch(/cancelled/);
  });

  it('checks every redirect target: a literal or a name resolving to a refused address is not fetched', async () => {
    // Only the server's own address counts as public here, so the first hop is allowed and the targets are not.
    const judged: string[] = [];
    const fetcher = startFetcher({
      isAddressAllowed: (address) => {
        judged.push(address);
        return address === '127.0.0.1';
      },
    });
    const via = (target: string) => `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`;
    expect(await fetcher.fetchImage({ url: via(`http://images.example.test:${port}/pixel.png`), param })).toMatchObject(
      { mediaType: 'image/png' },
    );
    expect((await refusal(fetcher, via(`http://127.0.0.2:${port}/pixel.png`))).message).toMatch(/non-public address/);
    judged.length = 0;
    expect((await refusal(fetcher, via(`http://rebound.example.test:${port}/pixel.png`))).message).toMatch(
      /not a public address/,
    );
    // The name's address was judged (and refused) at connect time, so no socket to it was opened.
    expect(judged).toContain('127.0.0.2');
    expect((await refusal(fetcher, via('file:///etc/passwd'))).message).toBe('The image URL must use http or https.');
  });

  it('follows at most three redirects', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true });
    expect(await fetcher.fetchImage({ url: `http://127.0.0.1:${port}/chain/2`, param })).toMatchObject({
      mediaType: 'image/png',
    });
    expect((await refusal(fetcher, `http://127.0.0.1:${port}/chain/3`)).message).toBe(
      'The image URL redirected more than 3 times.',
    );
  });

  it('refuses URLs that are not http(s) or carry credentials', async () => {
    const fetcher = startFetcher({ allowPrivateAddresses: true });
    expect((await refusal(fetcher, 'ftp://images.example.test/pixel.png')).message).toBe(
      'The image URL must use http or https.',
    );
    expect((await refusal(fetcher, `http://user:secret@127.0.0.1:${port}/pixel.png`)).message).toMatch(
      /user name or password/,
    );
    expect((await refusal(fetcher, 'http://')).message).toBe('The image URL is not a valid URL.');
  });
});
