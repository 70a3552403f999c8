import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { toGeminiErrorResponse } from './gemini-error.js';

describe('toGeminiErrorResponse', () => {
  it('answers in Google’s shape with its status names, keeping the error’s headers', () => {
    const cases: Array<[GatewayError, number, string]> = [
      [new GatewayError('invalid_request_error', 'bad'), 400, 'INVALID_ARGUMENT'],
      [new GatewayError('invalid_api_key', 'who'), 401, 'UNAUTHENTICATED'],
      [new GatewayError('forbidden', 'no'), 403, 'PERMISSION_DENIED'],
      [new GatewayError('model_not_found', 'where'), 404, 'NOT_FOUND'],
      [new GatewayError('insufficient_quota', 'broke'), 429, 'RESOURCE_EXHAUSTED'],
      [new GatewayError('server_error', 'oops'), 500, 'INTERNAL'],
      [new GatewayError('service_unavailable', 'busy'), 503, 'UNAVAILABLE'],
    ];
    for (const [error, status, name] of cases) {
      const rendered = toGeminiErrorResponse(error);
      expect(rendered.status).toBe(status);
      expect(rendered.body).toEqual({ error: { code: status, message: error.message, status: name } });
    }
    const limited = new GatewayError('rate_limit_exceeded', 'slow down', { headers: { 'retry-after': '3' } });
    expect(toGeminiErrorResponse(limited).headers).toEqual({ 'retry-after': '3' });
  });
});
