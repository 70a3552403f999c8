import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { requireSecretForNewOrigin } from './require-secret-for-new-origin.js';

function outcome(currentBaseUrl: string, newBaseUrl: string | undefined, secretGiven: boolean): string {
  try {
    requireSecretForNewOrigin(currentBaseUrl, newBaseUrl, secretGiven);
    return 'kept';
  } catch (error) {
    return error instanceof GatewayError ? `${error.status} ${error.param}` : 'other error';
  }
}

describe('requireSecretForNewOrigin', () => {
  it('refuses another scheme, host or port without the secret', () => {
    const current = 'https://api.vendor.example/v1';
    expect(outcome(current, 'https://evil.example/v1', false)).toBe('400 secret');
    expect(outcome(current, 'http://api.vendor.example/v1', false)).toBe('400 secret');
    expect(outcome(current, 'https://api.vendor.example:8443/v1', false)).toBe('400 secret');
    expect(outcome(current, 'https://vendor.example/v1', false)).toBe('400 secret');
  });

  it('keeps the secret for a new path on the same origin, no base URL change, or a new secret', () => {
    const current = 'https://api.vendor.example/v1';
    expect(outcome(current, 'https://api.vendor.example/openai/v2', false)).toBe('kept');
    expect(outcome(current, 'https://API.vendor.example:443/v1', false)).toBe('kept');
    expect(outcome(current, undefined, false)).toBe('kept');
    expect(outcome(current, 'https://evil.example/v1', true)).toBe('kept');
  });
});
