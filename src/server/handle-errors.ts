import type { FastifyError, FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';

/** Every failure leaves the gateway in OpenAI's error shape; internal details stay in the log. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    const gatewayError = toGatewayError(error);
    if (gatewayError.status >= 500) request.log.error({ err: error }, 'request failed');
    void reply.code(gatewayError.status).headers(gatewayError.headers).send(gatewayError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new GatewayError('not_found', `Unknown request URL: ${request.method} ${request.url.split('?')[0]}.`);
    void reply.code(error.status).send(error.toBody());
  });
}

function toGatewayError(error: FastifyError | GatewayError): GatewayError {
  if (error instanceof GatewayError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new GatewayError('request_too_large', 'The request body or an uploaded file is larger than this gateway accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new GatewayError('unsupported_media_type', 'Unsupported Content-Type: send application/json (or multipart/form-data for uploads).');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError('invalid_request_error', 'The request body is empty; send a JSON object.');
    default:
      break;
  }
  if (error.statusCode === 400 || (error instanceof SyntaxError)) {
    return new GatewayError('invalid_request_error', 'We could not parse the JSON body of your request. Send valid JSON.');
  }
  if (error.statusCode === 413) return new GatewayError('request_too_large', 'The request is larger than this gateway accepts.');
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new GatewayError('invalid_request_error', 'The request could not be read.');
  }
  return new GatewayError('server_error', 'The gateway failed to process the request; retry later.');
}
