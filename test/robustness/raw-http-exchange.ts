// Talks HTTP/1.1 to a server over a bare TCP socket, so tests can send what no HTTP client library would
// (broken framing, invalid request lines, pipelined requests) and read every response byte the server wrote.
import net from 'node:net';
import { HTTPParser } from 'http-parser-js';

/** One HTTP response read off the socket. */
export interface RawHttpResponse {
  status: number;
  /** header names in lower case; repeated headers joined with `, ` */
  headers: Record<string, string>;
  body: string;
}

/** What a server answered to the bytes written on one connection. */
export interface RawHttpExchange {
  /** complete responses, in order */
  responses: RawHttpResponse[];
  /** true when the server closed (or reset) the connection before the exchange ended */
  closedByServer: boolean;
  /** bytes after the last complete response that did not parse as HTTP, if any */
  unparsable: string | undefined;
  /** the socket left open for more writes when `keepOpen` was asked for and the server did not close it */
  socket: net.Socket | undefined;
}

/** A step of what the client sends: bytes, or a pause of some milliseconds (for slow clients). */
export type RawWrite = string | Buffer | { pauseMs: number };

/** What to send and when to stop reading. */
export interface RawHttpExchangeOptions {
  port: number;
  host?: string;
  writes: RawWrite[];
  /** stop reading once this many responses were read (the server may keep the connection open) */
  expectedResponses: number;
  /** which of the responses answer HEAD requests (they have no body), by index */
  headResponses?: ReadonlySet<number>;
  /** give up after this long and report what was read; default 10 s */
  timeoutMs?: number;
  /** leave the socket open afterwards (when the server kept it open) for a follow-up exchange */
  keepOpen?: boolean;
  /** after the expected responses, keep reading until the server closes (or the time runs out) */
  awaitClose?: boolean;
  /** an already open socket to use instead of connecting */
  socket?: net.Socket;
}

/** Connects, writes, and reads responses until enough were read, the server closed, or the time ran out. */
export function exchangeRawHttp(options: RawHttpExchangeOptions): Promise<RawHttpExchange> {
  const socket = options.socket ?? net.connect({ port: options.port, host: options.host ?? '127.0.0.1' });
  const reader = createResponseReader(options.headResponses ?? new Set());
  return new Promise((resolve) => {
    let closedByServer = socket.destroyed;
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('end', onClose);
      socket.off('error', onError);
      if (closedByServer) reader.finish();
      const keep = options.keepOpen === true && !closedByServer && !socket.destroyed;
      if (!keep) socket.destroy();
      resolve({
        responses: reader.responses,
        closedByServer,
        unparsable: reader.unparsable(),
        socket: keep ? socket : undefined,
      });
    };
    const onData = (bytes: Buffer): void => {
      reader.feed(bytes);
      if (reader.responses.length >= options.expectedResponses && options.awaitClose !== true) finish();
    };
    const onClose = (): void => {
      closedByServer = true;
      finish();
    };
    // A reset after the server answered and closed is still a close: what it wrote has been read.
    const onError = (): void => onClose();
    const timer = setTimeout(finish, options.timeoutMs ?? 10_000);
    socket.on('data', onData);
    socket.on('end', onClose);
    socket.on('close', onClose);
    socket.on('error', onError);
    void writeInOrder(socket, options.writes, () => settled);
  });
}

async function writeInOrder(socket: net.Socket, writes: RawWrite[], stopped: () => boolean): Promise<void> {
  for (const write of writes) {
    if (stopped() || socket.destroyed) return;
    if (typeof write === 'object' && !Buffer.isBuffer(write)) {
      await new Promise((resolve) => setTimeout(resolve, write.pauseMs));
      continue;
    }
    const flushed = socket.write(write);
    if (!flushed)
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
  }
}

interface ResponseReader {
  responses: RawHttpResponse[];
  feed(bytes: Buffer): void;
  /** the server closed: a body delimited by the close is complete now */
  finish(): void;
  unparsable(): string | undefined;
}

function createResponseReader(headResponses: ReadonlySet<number>): ResponseReader {
  const responses: RawHttpResponse[] = [];
  const parser = new HTTPParser(HTTPParser.RESPONSE);
  let current: { status: number; headers: Record<string, string>; body: Buffer[] } | undefined;
  let failure: string | undefined;
  parser[HTTPParser.kOnHeadersComplete] = (info) => {
    const headers: Record<string, string> = {};
    for (let index = 0; index + 1 < info.headers.length; index += 2) {
      const name = String(info.headers[index]).toLowerCase();
      const value = String(info.headers[index + 1]);
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    current = { status: info.statusCode, headers, body: [] };
    // 1 tells the parser the response has no body (HEAD); informational 1xx responses have none either.
    return headResponses.has(responses.length) || info.statusCode < 200 ? 1 : 0;
  };
  parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
    current?.body.push(Buffer.from(chunk.subarray(offset, offset + length)));
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    if (!current) return;
    // `100 Continue` and other interim answers are not responses of their own.
    if (current.status >= 200)
      responses.push({
        status: current.status,
        headers: current.headers,
        body: Buffer.concat(current.body).toString('utf8'),
      });
    current = undefined;
  };
  return {
    responses,
    feed(bytes) {
      if (failure !== undefined) return;
      const result = parser.execute(bytes);
      if (result instanceof Error) failure = `${result.message}: ${bytes.toString('latin1').slice(0, 200)}`;
    },
    finish() {
      if (failure !== undefined) return;
      const result = parser.finish();
      if (result instanceof Error) failure = result.message;
    },
    unparsable: () => failure,
  };
}

/** The bytes of one request with a Content-Length computed from the body (unless headers give one). */
export function encodeRawRequest(options: {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  httpVersion?: string;
}): Buffer {
  const body = options.body === undefined ? Buffer.alloc(0) : Buffer.from(options.body);
  const headers: Record<string, string> = { host: '127.0.0.1', ...options.headers };
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  if (options.body !== undefined && !names.includes('content-length') && !names.includes('transfer-encoding')) {
    headers['content-length'] = String(body.length);
  }
  const head = `${options.method} ${options.path} ${options.httpVersion ?? 'HTTP/1.1'}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
