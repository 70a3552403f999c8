import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true for routes whose body is multipart/form-data, `optional` for those taking either; every other /v1 POST takes JSON */
    multipartBody?: boolean | 'optional';
  }
}

/**
 * Refuses a body of the wrong kind with 415 before it is read: a multipart upload to a JSON endpoint, or a
 * JSON (or any other) body to an upload endpoint. Other unknown types get 415 from Fastify's parsers.
 */
export function checkBodyContentType(request: FastifyRequest): void {
  if (request.routeOptions.config.multipartBody === 'optional') return;
  const contentType = request.headers['content-type']?.toLowerCase() ?? '';
  const isMultipart = contentType.startsWith('multipart/form-data');
  const wantsMultipart = request.routeOptions.config.multipartBody === true;
  if (isMultipart && !wantsMultipart) {
    throw new GatewayError(
      'unsupported_media_type',
      'This endpoint takes a JSON body: send Content-Type: application/json.',
    );
  }
  if (!isMultipart && wantsMultipart) {
    throw new GatewayError('unsupported_media_type', 'This endpoint takes multipart/form-data with the file fields.');
  }
}
