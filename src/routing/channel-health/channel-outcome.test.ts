import { describe, expect, it } from 'vitest';
import { judgeChannelOutcome, retryAfterOf } from './channel-outcome.js';
import { mapStatusToChannelOutcome } from './map-status-to-channel-outcome.js';

describe('judgeChannelOutcome', () => {
  it('counts vendor errors, rate limits, timeouts, broken connections and refused channel credentials as failures', () => {
    expect(judgeChannelOutcome({ kind: 'vendor-error', status: 500 })).toBe('failure');
    expect(judgeChannelOutcome({ kind: 'rate-limited', retryAfter: '3' })).toBe('failure');
    expect(judgeChannelOutcome({ kind: 'timeout' })).toBe('failure');
    expect(judgeChannelOutcome({ kind: 'connection-error' })).toBe('failure');
    expect(judgeChannelOutcome({ kind: 'credential-rejected', status: 401 })).toBe('failure');
  });

  it('treats a 4xx the client caused, and a client that left, as saying nothing about the channel', () => {
    expect(judgeChannelOutcome({ kind: 'client-error', status: 400 })).toBe('neutral');
    expect(judgeChannelOutcome({ kind: 'cancelled' })).toBe('neutral');
    expect(judgeChannelOutcome({ kind: 'inconclusive' })).toBe('neutral');
    expect(judgeChannelOutcome({ kind: 'success' })).toBe('success');
  });

  it('reads Retry-After only from 429 and vendor errors', () => {
    expect(retryAfterOf({ kind: 'rate-limited', retryAfter: '7' })).toBe('7');
    expect(retryAfterOf({ kind: 'vendor-error', status: 503, retryAfter: '9' })).toBe('9');
    expect(retryAfterOf({ kind: 'timeout' })).toBeUndefined();
  });
});

describe('mapStatusToChannelOutcome', () => {
  it('blames the channel for 401/403, 408, 429 and 5xx, and the client for other 4xx', () => {
    expect(mapStatusToChannelOutcome(401, undefined)).toEqual({ kind: 'credential-rejected', status: 401 });
    expect(mapStatusToChannelOutcome(403, undefined)).toEqual({ kind: 'credential-rejected', status: 403 });
    expect(mapStatusToChannelOutcome(408, undefined)).toEqual({ kind: 'timeout' });
    expect(mapStatusToChannelOutcome(429, '2')).toEqual({ kind: 'rate-limited', retryAfter: '2' });
    expect(mapStatusToChannelOutcome(503, '5')).toEqual({ kind: 'vendor-error', status: 503, retryAfter: '5' });
    expect(mapStatusToChannelOutcome(529, undefined)).toEqual({
      kind: 'vendor-error',
      status: 529,
      retryAfter: undefined,
    });
    for (const status of [400, 404, 413, 422])
      expect(mapStatusToChannelOutcome(status, undefined)).toEqual({ kind: 'client-error', status });
    expect(mapStatusToChannelOutcome(200, undefined)).toEqual({ kind: 'success' });
  });
});
