import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError } from '../core/gateway-error.js';
import { closeAfterAnswer } from './close-after-answer.js';
import { encodeRawErrorResponse } from './encode-raw-error-response.js';

/** A parser error as Node reports it: llhttp's code (`HPE_...`) and its one-line reason. */
type ClientError = Error & { code?: string; reason?: unknown };

/** Sockets already answered: llhttp reports its error again for every later chunk of the same connection. */
const answeredSockets = new WeakSet<Socket>();

/** Responses not yet closed, per connection (several when requests are pipelined), in request order. */
const responsesInFlight = new WeakMap<Socket, Set<ServerResponse>>();

/**
 * Answers what the HTTP parser refuses (a malformed request line, bad chunked framing, conflicting lengths, a
 * header block over the limit) and requests that were not received in time, in OpenAI's error shape, then closes
 * the connection: after a framing error nothing later on it can be trusted. Fastify's `clientErrorHandler`.
 */
export function handleClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed || answeredSockets.has(socket)) return;
  answeredSockets.add(socket);
  answerWhenIdle(socket, encodeRawErrorResponse(mapClientError(error)));
}

/** The OpenAI error a client gets for a parser or connection error. */
export function mapClientError(error: ClientError): GatewayError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new GatewayError('headers_too_large', 'The request line and headers are larger than this gateway accepts.');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new GatewayError('request_timeout', 'The request (headers and body) was not received in time.');
  }
  const reason = typeof error.reason === 'string' ? ` (${error.reason.slice(0, 120)})` : '';
  return new GatewayError('invalid_request_error', `The request is not valid HTTP/1.1${reason}.`);
}

/**
 * Writes the answer once every earlier response on the socket is done, so its bytes never land before or inside
 * another response (pipelined requests are answered in order). A request whose body is still arriving is the
 * one at fault (its framing broke or it timed out): the answer is its response, or, if its response has
 * started, the connection is dropped.
 */
function answerWhenIdle(socket: Socket, answer: Buffer): void {
  if (socket.destroyed) return;
  const inFlight = [...(responsesInFlight.get(socket) ?? [])];
  const earlier = inFlight.find((response) => response.req.complete);
  if (earlier) {
    earlier.once('close', () => setImmediate(() => answerWhenIdle(socket, answer)));
    return;
  }
  if (inFlight.some((response) => response.headersSent)) socket.destroy();
  else closeAfterAnswer(socket, answer);
}

/**
 * Tracks the responses in flight on each connection (for answerWhenIdle), and answers requests Node would
 * otherwise answer itself with an empty body or a dropped connection: CONNECT
 * (405, the gateway is no proxy) and unknown `Expect` values (served as if absent). `Expect: 100-continue` is
 * held back until the request is admitted (see the preParsing hook in create-gateway-app), so a refused upload
 * is never sent.
 */
export function installHttpProtocolHandlers(server: Server): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    let responses = responsesInFlight.get(socket);
    if (!responses) {
      responses = new Set();
      responsesInFlight.set(socket, responses);
    }
    const tracked = responses;
    tracked.add(response);
    // 'close' fires once per response; `on` spares every request `once`'s wrapper and bound function.
    response.on('close', () => tracked.delete(response));
  });
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    const error = new GatewayError(
      'method_not_allowed',
      'CONNECT is not supported: this is an API server, not a proxy.',
      { headers: { allow: 'GET, HEAD, POST' } },
    );
    closeAfterAnswer(socket, encodeRawErrorResponse(error));
  });
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
}
