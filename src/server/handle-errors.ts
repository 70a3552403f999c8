import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import { lingerWhenClosing } from './close-after-answer.js';
import { renderGatewayError } from './render-gateway-error.js';
import type { RouteMethods } from './route-methods.js';

/** Fastify and multipart error codes a client's mistake produces, and what the client is told. */
const clientMistakes: Record<string, (error: FastifyError) => GatewayError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new GatewayError('request_too_large', 'The request body is larger than this gateway accepts.'),
  FST_REQ_FILE_TOO_LARGE: () =>
    new GatewayError('request_too_large', 'An uploaded file is larger than this gateway accepts.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => unsupportedMediaType(),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => unsupportedMediaType(),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new GatewayError('invalid_request_error', 'The request body is empty; send a JSON object.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new GatewayError('invalid_request_error', 'The request body is not as long as its Content-Length says.'),
  FST_FILES_LIMIT: () =>
    new GatewayError('invalid_request_error', 'The multipart form has more files than this endpoint takes.'),
  FST_PARTS_LIMIT: () =>
    new GatewayError('invalid_request_error', 'The multipart form has more parts than this endpoint takes.'),
  FST_FIELDS_LIMIT: () =>
    new GatewayError('invalid_request_error', 'The multipart form has more fields than this endpoint takes.'),
  FST_PROTO_VIOLATION: () => new GatewayError('invalid_request_error', 'A multipart field name is not allowed.'),
  FST_INVALID_JSON_FIELD_ERROR: () =>
    new GatewayError('invalid_request_error', 'A multipart field declared as JSON is not valid JSON.'),
  FST_ERR_BAD_URL: () =>
    new GatewayError('invalid_request_error', 'The request path is not valid: check its percent-encoding.'),
};

/** Error codes of a request whose client went away while its body was read; nobody reads the answer. */
const clientGoneCodes = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED', 'FST_ERR_REQ_ABORTED']);

/**
 * Every failure leaves the gateway in OpenAI's error shape; internal details stay in the log. Unknown paths get
 * 404 and known paths with another method 405 with `Allow`, both before any body is read. Any response sent
 * before its request's body was received closes the connection, so a keep-alive client never reads a stream
 * that lost its framing and a refused upload is not read to its end.
 */
export function installErrorHandlers(app: FastifyInstance, routeMethods: RouteMethods): void {
  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    const gatewayError = toGatewayError(error);
    if (gatewayError.status >= 500) request.log.error({ err: error }, 'request failed');
    sendGatewayError(reply, gatewayError);
  });
  app.setNotFoundHandler((request, reply) => {
    sendGatewayError(reply, unknownRouteError(request, routeMethods));
  });
  // The not-found route would otherwise read (and parse) the body first.
  app.addHook('onRequest', (request, reply, done) => {
    // Answering from a callback hook means not calling `done`: the chain stops here.
    if (request.is404) sendGatewayError(reply, unknownRouteError(request, routeMethods));
    else done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isBodyReceived(request)) closeAfterResponse(reply);
    done(null, payload);
  });
}

/** Fastify's `frameworkErrors` option: a path the router cannot decode, or a route parameter over its length limit. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const gatewayError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new GatewayError('not_found', `Unknown request URL: ${request.method} ${pathOf(request).slice(0, 200)}.`)
      : toGatewayError(error);
  if (gatewayError.status >= 500) request.log.error({ err: error }, 'router failed');
  sendGatewayError(reply, gatewayError);
}

function sendGatewayError(reply: FastifyReply, error: GatewayError): void {
  // Fastify closes after any body-parsing error; a body read to its end leaves the connection usable.
  if (isBodyReceived(reply.request)) {
    if (reply.hasHeader('connection')) reply.removeHeader('connection');
  } else closeAfterResponse(reply);
  // Anthropic clients (/v1/messages) get Anthropic's error shape and statuses; everyone else OpenAI's.
  const rendered = renderGatewayError(reply.request, error);
  void reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
}

/** Announces and makes the end of the connection after this response (see lingerWhenClosing). */
function closeAfterResponse(reply: FastifyReply): void {
  void reply.header('connection', 'close');
  const socket = reply.raw.socket;
  if (socket) lingerWhenClosing(socket);
}

/**
 * True when the request's body has been received whole, or it has none. Node marks a request complete only
 * after the 'request' event, so a bodiless request answered at once (from onRequest) is not complete yet.
 */
function isBodyReceived(request: FastifyRequest): boolean {
  const { raw } = request;
  if (raw.complete) return true;
  const contentLength = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] === undefined && (contentLength === undefined || contentLength === '0');
}

function unknownRouteError(request: FastifyRequest, routeMethods: RouteMethods): GatewayError {
  const path = pathOf(request);
  const shownPath = path.slice(0, 200);
  const allowed = routeMethods.allowedAt(path);
  if (allowed.length === 0)
    return new GatewayError('not_found', `Unknown request URL: ${request.method} ${shownPath}.`);
  return new GatewayError(
    'method_not_allowed',
    `${request.method} is not supported on ${shownPath}; use ${allowed.join(' or ')}.`,
    {
      headers: { allow: allowed.join(', ') },
    },
  );
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/';
}

function unsupportedMediaType(): GatewayError {
  return new GatewayError(
    'unsupported_media_type',
    'Unsupported Content-Type: send application/json (or multipart/form-data for uploads).',
  );
}

function toGatewayError(error: FastifyError | GatewayError): GatewayError {
  if (error instanceof GatewayError) return error;
  const known = error.code === undefined ? undefined : clientMistakes[error.code];
  if (known) return known(error);
  if (error.code !== undefined && clientGoneCodes.has(error.code)) {
    return new GatewayError('invalid_request_error', 'The client closed the connection before the request was read.');
  }
  // JSON.parse and secure-json-parse (prototype poisoning) throw these while reading a JSON body.
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON|prototype|constructor/.test(error.message))) {
    return new GatewayError(
      'invalid_request_error',
      'We could not parse the JSON body of your request. Send valid JSON.',
    );
  }
  if (error.statusCode === 413)
    return new GatewayError('request_too_large', 'The request is larger than this gateway accepts.');
  if (error.statusCode === 415) return unsupportedMediaType();
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new GatewayError('invalid_request_error', 'The request could not be read.');
  }
  return new GatewayError('server_error', 'The gateway failed to process the request; retry later.');
}
