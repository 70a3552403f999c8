import { describe, expect, it } from 'vitest';
import { redactChannelSecrets } from './redact-channel-secrets.js';

describe('redactChannelSecrets', () => {
  it("removes a Gemini channel's own AIza key and any other Google key a vendor quotes", () => {
    const channel = {
      secret: 'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
      baseUrl: 'https://generativelanguage.googleapis.com',
    };
    const redacted = redactChannelSecrets(
      'API key not valid: AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW (also AIzaSyZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ)',
      channel,
    );
    expect(redacted).not.toContain('AIza');
    expect(redacted).toContain('API key not valid');
  });

  it('removes each part of an AWS secret, the base URL and the host', () => {
    const channel = {
      secret: 'AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    };
    const redacted = redactChannelSecrets(
      'secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY for AKIAIOSFODNN7EXAMPLE at bedrock-runtime.us-east-1.amazonaws.com',
      channel,
    );
    expect(redacted).toBe('secret [redacted] for [redacted] at [redacted]');
  });

  it('removes every key of a channel whose secret lists several, whatever they look like', () => {
    const channel = { secret: 'plainkeyone12345,plainkeytwo67890', baseUrl: 'http://127.0.0.1:9' };
    expect(redactChannelSecrets('rejected plainkeytwo67890', channel)).toBe('rejected [redacted]');
  });
});
