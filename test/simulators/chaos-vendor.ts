// A loopback vendor that misbehaves on purpose: one HTTP server speaking every upstream wire the gateway uses
// (OpenAI chat, completions, embeddings, images and Responses; Anthropic Messages; Gemini; Bedrock Converse), where
// each request plays the misbehaviour its path names: a channel's base URL `http://host/chaos/<scenario>/v1` makes
// every request of that channel play <scenario>. See chaos-vendor-scenarios.ts for the list.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isChaosScenario, type ChaosScenario } from './chaos-vendor-scenarios.js';
import { chaosWireFormats, findChaosWire, type ChaosFrame, type ChaosWireFormat } from './chaos-vendor-wires.js';

/** A running chaos vendor. */
export interface ChaosVendor {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** the base URL of a channel whose every request plays `scenario`; `suffix` is the protocol's version path, e.g. `/v1` */
  baseUrlFor(scenario: ChaosScenario, suffix: string): string;
  /** how many requests each scenario served */
  readonly requestsByScenario: ReadonlyMap<ChaosScenario, number>;
  close(): Promise<void>;
}

/** How the chaos vendor misbehaves. */
export interface ChaosVendorOptions {
  /** the AWS secret access key a Bedrock `key-in-error` or `error-event` answer quotes back besides the access key id it received */
  awsSecretAccessKey?: string;
  /** the size of an `oversized-body` answer, in bytes (make it ten times the gateway's cap) */
  oversizedBytes: number;
  /** the size of the one event an `oversized-event` stream sends, in characters (make it larger than the gateway's cap) */
  oversizedEventCharacters: number;
  /** how many bytes `one-byte-a-second` sends (one a second) before it stalls, never ending its answer */
  trickleBytes?: number;
}

const htmlPage =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>';
const garbageLines = ': keep-alive\n\nthis line is not a field\nretry: soon\n\n';
const writeChunkBytes = 64 * 1024;

/** Starts the chaos vendor on 127.0.0.1 and a free port. */
export async function startChaosVendor(options: ChaosVendorOptions): Promise<ChaosVendor> {
  const requestsByScenario = new Map<ChaosScenario, number>();
  const openResponses = new Set<ServerResponse>();
  const server = http.createServer((request, response) => {
    openResponses.add(response);
    response.on('close', () => openResponses.delete(response));
    readRequestBody(request).then(
      (body) => serveRequest({ request, response, body, options, requestsByScenario, origin: originOf(server) }),
      () => response.destroy(),
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = originOf(server);
  return {
    origin,
    baseUrlFor: (scenario, suffix) => `${origin}/chaos/${scenario}${suffix}`,
    requestsByScenario,
    async close() {
      for (const response of openResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function originOf(server: http.Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readRequestBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

interface ChaosExchange {
  request: IncomingMessage;
  response: ServerResponse;
  body: string;
  options: ChaosVendorOptions;
  requestsByScenario: Map<ChaosScenario, number>;
  origin: string;
}

function serveRequest(exchange: ChaosExchange): void {
  const { request, response } = exchange;
  const match = /^\/chaos\/([a-z0-9-]+)(\/.*)$/.exec(request.url ?? '');
  const scenario = match?.[1];
  const rest = match?.[2] ?? '';
  const found = findChaosWire(rest);
  if (!scenario || !isChaosScenario(scenario) || !found) {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `The chaos vendor has no ${request.url ?? ''}.` } }));
    return;
  }
  exchange.requestsByScenario.set(scenario, (exchange.requestsByScenario.get(scenario) ?? 0) + 1);
  const format = chaosWireFormats[found.wire];
  const stream = found.streamByPath || readsStreamFlag(exchange.body);
  playScenario({ exchange, scenario, format, stream, rest });
}

function readsStreamFlag(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && (parsed as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

interface ScenarioPlay {
  exchange: ChaosExchange;
  scenario: ChaosScenario;
  format: ChaosWireFormat;
  stream: boolean;
  /** the request path after `/chaos/<scenario>` */
  rest: string;
}

function playScenario(play: ScenarioPlay): void {
  const { exchange, scenario, format, stream } = play;
  const { response, request } = exchange;
  const frames = format.streamFrames();
  switch (scenario) {
    case 'ok':
      return answerWell(play);
    case 'reset-before-head':
      request.socket.destroy();
      return;
    case 'reset-after-head':
      response.writeHead(200, { 'content-type': stream ? format.streamContentType : 'application/json' });
      response.flushHeaders();
      setTimeout(() => response.destroy(), 5);
      return;
    case 'redirect-302':
      response.writeHead(302, { 'content-length': '0' });
      response.end();
      return;
    case 'redirect-307-location':
      response.writeHead(307, { location: `${exchange.origin}/chaos/ok${play.rest}`, 'content-type': 'text/html' });
      response.end(htmlPage);
      return;
    case 'html-500':
      return sendRaw(response, 500, 'text/html', htmlPage);
    case 'empty-503':
      return sendRaw(response, 503, undefined, '');
    case 'html-403':
      return sendRaw(response, 403, 'text/html', htmlPage);
    case 'payment-402': {
      const error = format.errorBody(
        402,
        'Your credit balance is too low to access the API. Please go to Plans & Billing to purchase credits.',
      );
      return sendRaw(response, 402, 'application/json', error.body, error.headers);
    }
    case 'truncated-json': {
      const whole = format.successBody();
      return sendRaw(response, 200, 'application/json', whole.slice(0, Math.floor(whole.length / 2)));
    }
    case 'html-200':
      return sendRaw(response, 200, 'text/html; charset=utf-8', htmlPage);
    case 'truncated-sse':
      if (!stream) return answerWell(play);
      return sendFrames(response, format.streamContentType, frames.slice(0, format.framesBeforeEnd), 'end');
    case 'cut-sse':
      if (!stream) return answerWell(play);
      return sendFrames(response, format.streamContentType, frames.slice(0, format.framesBeforeEnd), 'reset');
    case 'sse-garbage-lines':
      if (!stream) return answerWell(play);
      if (format.streamContentType !== 'text/event-stream' && !format.streamContentType.startsWith('text/event-stream'))
        return answerWell(play);
      return sendFrames(
        response,
        format.streamContentType,
        [garbageLines, ...frames.flatMap((frame) => [frame, garbageLines])],
        'end',
      );
    case 'data-html':
      if (!stream) return answerWell(play);
      return sendFrames(
        response,
        format.streamContentType,
        [...frames.slice(0, format.framesBeforeEnd), format.unreadableFrame(), ...frames.slice(format.framesBeforeEnd)],
        'end',
      );
    case 'error-event':
      if (!stream) return answerWell(play);
      return sendFrames(
        response,
        format.streamContentType,
        [...frames.slice(0, format.framesBeforeEnd), ...format.streamErrorFrames(keyBearingText(exchange))],
        'end',
      );
    case 'oversized-body':
      return sendOversized(response, exchange.options.oversizedBytes);
    case 'oversized-event':
      if (!stream) return answerWell(play);
      return sendFrames(
        response,
        format.streamContentType,
        [
          ...frames.slice(0, format.framesBeforeEnd),
          format.oversizedFrame(exchange.options.oversizedEventCharacters),
          ...frames.slice(format.framesBeforeEnd),
        ],
        'end',
      );
    case 'one-byte-a-second':
      return trickle(
        response,
        stream ? format.streamContentType : 'application/json',
        stream ? frameText(frames[0]) : format.successBody(),
        exchange.options.trickleBytes ?? 3,
      );
    case 'no-answer':
      // The request was read; no head ever follows. The gateway's headers timeout must end this.
      return;
    case 'shape-empty-array':
      return sendRaw(response, 200, 'application/json', format.wrongShapes.emptyArray);
    case 'shape-missing-field':
      return sendRaw(response, 200, 'application/json', format.wrongShapes.missingMainField);
    case 'shape-usage-string':
      return sendRaw(response, 200, 'application/json', format.wrongShapes.usageAsString);
    case 'json-for-stream':
      if (!stream) return answerWell(play);
      return sendRaw(response, 200, 'application/json', format.successBody());
    case 'html-for-stream':
      if (!stream) return answerWell(play);
      return sendRaw(response, 200, 'text/html; charset=utf-8', htmlPage);
    case 'key-in-error': {
      const error = format.errorBody(400, keyBearingText(exchange));
      return sendRaw(response, 400, 'application/json', error.body, error.headers);
    }
    default: {
      const unknown: never = scenario;
      throw new Error(`unknown chaos scenario ${String(unknown)}`);
    }
  }
}

function answerWell(play: ScenarioPlay): void {
  const { format, stream, exchange } = play;
  if (stream) sendFrames(exchange.response, format.streamContentType, format.streamFrames(), 'end');
  else sendRaw(exchange.response, 200, 'application/json', format.successBody());
}

function sendRaw(
  response: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...(contentType ? { 'content-type': contentType } : {}),
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  response.end(body);
}

function sendFrames(
  response: ServerResponse,
  contentType: string,
  frames: readonly ChaosFrame[],
  ending: 'end' | 'reset',
): void {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  for (const frame of frames) response.write(frame);
  if (ending === 'end') response.end();
  // Let the frames leave first, then cut the connection without ending the chunked body.
  else setTimeout(() => response.destroy(), 10);
}

function frameText(frame: ChaosFrame | undefined): string {
  if (frame === undefined) return '';
  return typeof frame === 'string' ? frame : Buffer.from(frame).toString('latin1');
}

/** Writes a JSON body ten times larger than the gateway takes, in chunks as the client reads them. */
function sendOversized(response: ServerResponse, totalBytes: number): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(totalBytes) });
  const head = '{"padding":"';
  const tail = '"}';
  let remaining = totalBytes - head.length - tail.length;
  response.write(head);
  const writeMore = (): void => {
    while (remaining > 0) {
      const size = Math.min(writeChunkBytes, remaining);
      remaining -= size;
      const flushed = response.write('x'.repeat(size));
      if (remaining === 0) {
        response.end(tail);
        return;
      }
      if (!flushed) {
        response.once('drain', writeMore);
        return;
      }
    }
  };
  writeMore();
}

/** Sends a 200 and then one byte a second of `text`, `bytes` of them, then stalls without ever ending. */
function trickle(response: ServerResponse, contentType: string, text: string, bytes: number): void {
  response.writeHead(200, { 'content-type': contentType });
  response.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= bytes || sent >= text.length) {
      clearInterval(timer);
      return;
    }
    response.write(text.charAt(sent));
    sent += 1;
  }, 1_000);
  response.on('close', () => clearInterval(timer));
}

/** A vendor error message quoting the key the request carried (and, to a Bedrock request, the AWS secret access key). */
function keyBearingText(exchange: ChaosExchange): string {
  const aws =
    /Credential=/.test(exchange.request.headers.authorization ?? '') && exchange.options.awsSecretAccessKey
      ? [exchange.options.awsSecretAccessKey]
      : [];
  const keys = [...keysOf(exchange.request), ...aws];
  return `API key not valid. Please pass a valid API key. Received: ${keys.join(' and ')}.`;
}

/** The credentials a request carried: a bearer token, `x-api-key`, `x-goog-api-key`, or an AWS access key id. */
function keysOf(request: IncomingMessage): string[] {
  const keys: string[] = [];
  const authorization = request.headers.authorization ?? '';
  const bearer = /^Bearer (.+)$/.exec(authorization);
  if (bearer?.[1]) keys.push(bearer[1]);
  const awsCredential = /Credential=([^/]+)\//.exec(authorization);
  if (awsCredential?.[1]) keys.push(awsCredential[1]);
  for (const header of ['x-api-key', 'x-goog-api-key', 'api-key']) {
    const value = request.headers[header];
    if (typeof value === 'string' && value) keys.push(value);
  }
  return keys;
}
