import { STATUS_CODES } from 'node:http';
import type { GatewayError } from '../core/gateway-error.js';

/**
 * The bytes of a whole HTTP/1.1 error response in OpenAI's shape, announcing `Connection: close`: for answers
 * written straight to a socket where no Fastify reply exists (the HTTP parser failed, a CONNECT request).
 */
export function encodeRawErrorResponse(error: GatewayError): Buffer {
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...error.headers,
  };
  const head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.from(head + body, 'utf8');
}
