// A loopback HTTP server of images, for requests whose image_url the gateway must fetch.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1×1 red PNG. */
export const redPixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A running image server. */
export interface ImageServer {
  /** e.g. `http://127.0.0.1:PORT`; `/red-pixel.png` serves redPixelPng, `/page.html` an HTML page, `/never.png` never answers */
  url: string;
  /** paths requested so far, in order */
  requestedPaths: string[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startImageServer(): Promise<ImageServer> {
  const requestedPaths: string[] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    requestedPaths.push(path);
    if (path === '/red-pixel.png')
      return void response
        .writeHead(200, { 'content-type': 'image/png', 'content-length': redPixelPng.length })
        .end(redPixelPng);
    // A server that accepts the request and never answers, so a test can act while the gateway is still fetching.
    if (path === '/never.png') return;
    if (path === '/page.html')
      return void response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><p>not an image</p>');
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requestedPaths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
