import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../core/gateway-error.js';
import { mapBedrockUpstreamFailure as mapFailure } from './map-bedrock-upstream-failure.js';

/** The mapping never succeeds; this narrows its result to the failure variants. */
function mapBedrockUpstreamFailure(
  status: number,
  bodyText: string,
  retryAfter: string | undefined,
): { kind: string; error: GatewayError } {
  const result = mapFailure(status, bodyText, retryAfter);
  if (result.kind === 'success') throw new Error('a failure cannot map to success');
  return result;
}

describe('mapBedrockUpstreamFailure', () => {
  it('passes a redacted ValidationException message through as a final 400', () => {
    const result = mapBedrockUpstreamFailure(
      400,
      JSON.stringify({
        message:
          'Malformed input for arn:aws:bedrock:us-east-1:123456789012:inference-profile/x by AKIAABCDEFGHIJKLMNOP at https://bedrock-runtime.us-east-1.amazonaws.com',
      }),
      undefined,
    );
    expect(result.kind).toBe('final-failure');
    expect(result.error.code).toBe('invalid_request_error');
    expect(result.error.message).toBe('Malformed input for [arn] by [redacted] at [url]');
  });

  it.each([
    [401, 'service_unavailable'],
    [403, 'service_unavailable'],
    [404, 'model_not_found'],
    [408, 'service_unavailable'],
    [424, 'server_error'],
    [429, 'rate_limit_exceeded'],
    [500, 'server_error'],
    [503, 'service_unavailable'],
    [502, 'service_unavailable'],
  ])('maps %i to a retryable %s without the vendor text', (status, code) => {
    const result = mapBedrockUpstreamFailure(
      status,
      JSON.stringify({ message: 'secret detail 123456789012' }),
      undefined,
    );
    expect(result.kind).toBe('retryable-failure');
    expect(result.error.code).toBe(code);
    expect(result.error.message).not.toContain('secret detail');
  });

  it('keeps Retry-After on throttling', () => {
    expect(mapBedrockUpstreamFailure(429, '{"message":"Too many requests"}', '3').error.headers).toEqual({
      'retry-after': '3',
    });
  });

  it('never shows a non-JSON body', () => {
    const result = mapBedrockUpstreamFailure(400, '<html>internal proxy page</html>', undefined);
    expect(result.error.message).not.toContain('proxy');
  });
});
