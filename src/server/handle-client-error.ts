import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError } from '../core/gateway-error.js';
import { closeAfterAnswer } from './close-after-answer.js';
import { encodeRawErrorResponse } from './encode-raw-error-response.js';

/** Node's HTTP server keeps the response in progress on its socket; no public API exposes it. */
type SocketWithResponse = Socket & { _httpMessage?: ServerResponse | null };

/** A parser error as Node reports it: llhttp's code (`HPE_...`) and its one-line reason. */
type ClientError = Error & { code?: string; reason?: unknown };

/** Sockets already answered: llhttp reports its error again for every later chunk of the same connection. */
const answeredSockets = new WeakSet<Socket>();

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
 * Writes the answer once no earlier response is being written on the socket, so bytes never land inside another
 * response. A response whose request is still arriving is the one at fault (its body broke or timed out): it
 * is answered at once if nothing of it was sent yet. A complete earlier request (pipelining) finishes first.
 */
function answerWhenIdle(socket: Socket, answer: Buffer): void {
  const inFlight = (socket as SocketWithResponse)._httpMessage;
  if (!inFlight || inFlight.writableFinished) {
    closeAfterAnswer(socket, answer);
    return;
  }
  const request: IncomingMessage | undefined = inFlight.req;
  if (request !== undefined && !request.complete) {
    if (inFlight.headersSent) socket.destroy();
    else closeAfterAnswer(socket, answer);
    return;
  }
  const onFinish = (): void => {
    inFlight.off('close', onClose);
    // Node hands the socket to the next pipelined response in its own 'finish' listener, which ran first.
    setImmediate(() => answerWhenIdle(socket, answer));
  };
  const onClose = (): void => {
    inFlight.off('finish', onFinish);
    socket.destroy();
  };
  inFlight.once('finish', onFinish);
  inFlight.once('close', onClose);
}

/**
 * Answers requests Node would otherwise answer itself with an empty body or a dropped connection: CONNECT
 * (405, the gateway is no proxy) and unknown `Expect` values (served as if absent). `Expect: 100-continue` is
 * held back until the request is admitted (see the preParsing hook in create-gateway-app), so a refused upload
 * is never sent.
 */
export function installHttpProtocolHandlers(server: Server): void {
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    const error = new GatewayError('method_not_allowed', 'CONNECT is not supported: this is an API server, not a proxy.', { headers: { allow: 'GET, HEAD, POST' } });
    closeAfterAnswer(socket, encodeRawErrorResponse(error));
  });
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
}
