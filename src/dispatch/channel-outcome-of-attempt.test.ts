import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { withChannelOutcome } from './channel-attempt-result.js';
import { channelOutcomeOfAttempt } from './channel-outcome-of-attempt.js';
import { transportFailureOutcome } from './transport-failure-outcome.js';

const vendorFailure = new GatewayError('server_error', 'The upstream vendor failed.');

describe('channelOutcomeOfAttempt', () => {
  it('counts an answer as a success, even when the client left meanwhile', () => {
    expect(channelOutcomeOfAttempt({ kind: 'success', value: 1 }, true)).toEqual({ kind: 'success' });
  });

  it('keeps what the attempt saw first-hand: the upstream status and its Retry-After', () => {
    const result = withChannelOutcome(
      { kind: 'retryable-failure', error: vendorFailure },
      { kind: 'rate-limited', retryAfter: '30' },
    );
    expect(channelOutcomeOfAttempt(result, false)).toEqual({ kind: 'rate-limited', retryAfter: '30' });
  });

  it('says nothing about the channel when the client left before an outcome', () => {
    expect(channelOutcomeOfAttempt({ kind: 'final-failure', error: vendorFailure }, true)).toEqual({
      kind: 'cancelled',
    });
  });

  it("blames the client's request for a final failure the vendor did not answer (a parameter the channel cannot honour)", () => {
    const refused = new GatewayError('invalid_request_error', "The vendor does not support 'logprobs'.");
    expect(channelOutcomeOfAttempt({ kind: 'final-failure', error: refused }, false)).toEqual({
      kind: 'client-error',
      status: 400,
    });
  });

  it('is inconclusive for a retryable failure without an upstream answer (the channel cannot serve the endpoint)', () => {
    expect(channelOutcomeOfAttempt({ kind: 'retryable-failure', error: vendorFailure }, false)).toEqual({
      kind: 'inconclusive',
    });
  });
});

describe('transportFailureOutcome', () => {
  it("is a timeout for undici's connect, headers and body timeouts, else a broken connection", () => {
    expect(transportFailureOutcome(new errors.HeadersTimeoutError())).toEqual({ kind: 'timeout' });
    expect(transportFailureOutcome(new errors.BodyTimeoutError())).toEqual({ kind: 'timeout' });
    expect(transportFailureOutcome(new errors.ConnectTimeoutError())).toEqual({ kind: 'timeout' });
    expect(transportFailureOutcome(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toEqual(
      { kind: 'connection-error' },
    );
    expect(transportFailureOutcome(new errors.SocketError('other side closed'))).toEqual({ kind: 'connection-error' });
  });
});
