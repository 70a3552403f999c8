import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { refuseCrossSiteRequest } from './refuse-cross-site-request.js';

const publicOrigin = 'https://gateway.example';

function requestOf(method: string, url: string, headers: Record<string, string>): FastifyRequest {
  return { method, url, headers } as unknown as FastifyRequest;
}

function outcome(method: string, url: string, headers: Record<string, string>): string {
  try {
    refuseCrossSiteRequest(requestOf(method, url, headers), publicOrigin);
    return 'passed';
  } catch (error) {
    return error instanceof GatewayError ? error.code : 'other error';
  }
}

describe('refuseCrossSiteRequest', () => {
  it('lets state-changing requests through only from the same origin', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(outcome(method, '/api/keys', { 'sec-fetch-site': 'cross-site' }), method).toBe('forbidden');
      expect(outcome(method, '/api/keys', { 'sec-fetch-site': 'same-site' }), method).toBe('forbidden');
      expect(outcome(method, '/api/keys', { 'sec-fetch-site': 'same-origin' }), method).toBe('passed');
      expect(outcome(method, '/api/keys', { 'sec-fetch-site': 'none' }), method).toBe('passed');
    }
  });

  it("accepts Sec-Fetch-Site none on writes only without Origin or with the gateway's own", () => {
    expect(outcome('POST', '/api/keys', { 'sec-fetch-site': 'none' })).toBe('passed');
    expect(outcome('POST', '/api/keys', { 'sec-fetch-site': 'none', origin: publicOrigin })).toBe('passed');
    expect(outcome('POST', '/api/keys', { 'sec-fetch-site': 'none', origin: 'https://evil.example' })).toBe(
      'forbidden',
    );
    expect(outcome('DELETE', '/api/keys/key_1', { 'sec-fetch-site': 'none', origin: 'null' })).toBe('forbidden');
    // Reads stay unchecked whatever the Origin.
    expect(outcome('GET', '/api/me', { 'sec-fetch-site': 'none', origin: 'https://evil.example' })).toBe('passed');
  });

  it('falls back to Origin only when Sec-Fetch-Site is absent, compared with the public origin', () => {
    expect(outcome('POST', '/api/keys', { origin: publicOrigin })).toBe('passed');
    expect(outcome('POST', '/api/keys', { origin: 'https://gateway.example.evil.example' })).toBe('forbidden');
    expect(outcome('POST', '/api/keys', { origin: 'http://gateway.example' })).toBe('forbidden');
    expect(outcome('POST', '/api/keys', {})).toBe('forbidden');
    // A browser that says cross-site is believed even when Origin looks right.
    expect(outcome('POST', '/api/keys', { 'sec-fetch-site': 'cross-site', origin: publicOrigin })).toBe('forbidden');
  });

  it('never checks safe methods or the payment webhooks', () => {
    expect(outcome('GET', '/api/me', { 'sec-fetch-site': 'cross-site' })).toBe('passed');
    expect(outcome('HEAD', '/api/me', { 'sec-fetch-site': 'cross-site' })).toBe('passed');
    expect(outcome('POST', '/api/payments/stripe/webhook', {})).toBe('passed');
    expect(outcome('POST', '/api/payments/alipay/notify', { 'sec-fetch-site': 'cross-site' })).toBe('passed');
  });
});
