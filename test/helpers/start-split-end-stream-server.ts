// A loopback SSE server for connection-reuse tests: each response sends its events, then ends its chunked body in a
// later packet, as vendors do; so a reader that stops at the terminal event has not seen the body's end yet.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';

/** A running server and a keep-alive client to it. */
export interface SplitEndStreamServer {
  /** GETs one stream over the shared keep-alive agent */
  requestStream(): Promise<Dispatcher.ResponseData>;
  /** TCP connections the server accepted so far */
  readonly connections: number;
  close(): Promise<void>;
}

/** Serves `firstEvents`, then `terminalEvents` a tick later, then the body's end 5 ms after that. */
export async function startSplitEndStreamServer(
  firstEvents: string,
  terminalEvents: string,
): Promise<SplitEndStreamServer> {
  let connections = 0;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(firstEvents);
    setImmediate(() => {
      response.write(terminalEvents);
      setTimeout(() => response.end(), 5);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  return {
    requestStream: () => request(url, { dispatcher }),
    get connections() {
      return connections;
    },
    async close() {
      await dispatcher.close();
      server.close();
    },
  };
}

/** Waits for a body to close and for undici to mark its connection idle (a moment after the body's end). */
export async function waitUntilConnectionIsIdle(body: Dispatcher.ResponseData['body']): Promise<void> {
  if (!body.closed) await new Promise((resolve) => body.once('close', resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
}
