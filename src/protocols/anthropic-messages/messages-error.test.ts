import { describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '../../core/error-codes.js';
import { GatewayError } from '../../core/gateway-error.js';
import { messagesErrorOf, toMessagesErrorResponse } from './messages-error.js';
import { threadNotFoundError, threadsUnsupportedError } from './messages-thread-error.js';

/** Anthropic's status and type for every gateway error code (the table of docs/API.md, "Messages errors"). */
const expected: Record<ErrorCode, [number, string]> = {
  invalid_request_error: [400, 'invalid_request_error'],
  invalid_api_key: [401, 'authentication_error'],
  unauthorized: [401, 'authentication_error'],
  forbidden: [403, 'permission_error'],
  model_not_found: [404, 'not_found_error'],
  not_found: [404, 'not_found_error'],
  method_not_allowed: [405, 'invalid_request_error'],
  request_timeout: [408, 'invalid_request_error'],
  request_too_large: [413, 'request_too_large'],
  unsupported_media_type: [415, 'invalid_request_error'],
  headers_too_large: [431, 'invalid_request_error'],
  insufficient_quota: [429, 'rate_limit_error'],
  rate_limit_exceeded: [429, 'rate_limit_error'],
  server_error: [500, 'api_error'],
  upstream_error: [502, 'api_error'],
  upstream_timeout: [504, 'api_error'],
  service_unavailable: [529, 'overloaded_error'],
};

describe('messagesErrorOf', () => {
  it.each(Object.keys(errorCodes) as ErrorCode[])('maps %s', (code) => {
    const [status, type] = expected[code];
    expect(messagesErrorOf(code)).toEqual({ status, type });
  });
});

describe('toMessagesErrorResponse', () => {
  it("writes Anthropic's body with the request id and keeps the error's headers", () => {
    const error = new GatewayError('rate_limit_exceeded', 'slow down', { headers: { 'retry-after': '3' } });
    expect(toMessagesErrorResponse(error, 'req_1')).toEqual({
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' }, request_id: 'req_1' },
      headers: { 'retry-after': '3' },
    });
  });

  it('tells the SDK not to retry an exhausted balance', () => {
    expect(toMessagesErrorResponse(new GatewayError('insufficient_quota', 'top up'), 'req_2').headers).toEqual({
      'x-should-retry': 'false',
    });
  });
});

describe('thread errors', () => {
  it('name their error_code in error.details, which @anthropic-ai/sdk recovers by', () => {
    expect(toMessagesErrorResponse(threadNotFoundError('msg_gone'), 'req_1')).toMatchObject({
      status: 404,
      body: { type: 'error', error: { type: 'not_found_error', details: { error_code: 'thread_not_found' } } },
    });
    expect(toMessagesErrorResponse(threadsUnsupportedError(), 'req_1')).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', details: { error_code: 'thread_unsupported_request' } } },
    });
    expect(toMessagesErrorResponse(new GatewayError('not_found', 'gone'), 'req_1').body.error).not.toHaveProperty(
      'details',
    );
  });
});
