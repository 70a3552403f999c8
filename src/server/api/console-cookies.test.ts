import { describe, expect, it } from 'vitest';
import { encodeOauthTransactionCookie, encodeSessionCookies } from './console-cookies.js';

describe('console cookies', () => {
  it('marks the session and attempt cookies Secure unless the public origin is plain http on loopback', () => {
    expect(encodeSessionCookies('gwses-x', { maxAgeSeconds: 60, publicOrigin: 'https://gateway.example' })[0]).toBe(
      'gateway_session=gwses-x; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure',
    );
    expect(encodeSessionCookies('gwses-x', { maxAgeSeconds: 60, publicOrigin: 'http://127.0.0.1:3000' })[0]).toBe(
      'gateway_session=gwses-x; Path=/; HttpOnly; SameSite=Lax; Max-Age=60',
    );
    expect(encodeOauthTransactionCookie('abc', 'https://gateway.example')).toBe(
      'gateway_oauth=abc; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=600; Secure',
    );
    expect(encodeOauthTransactionCookie('', 'http://localhost:3000')).toBe(
      'gateway_oauth=; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=0',
    );
  });

  it('removes the session cookie of earlier releases (Path=/api) when a session starts', () => {
    expect(encodeSessionCookies('gwses-x', { maxAgeSeconds: 60, publicOrigin: 'http://127.0.0.1:3000' })[1]).toBe(
      'gateway_session=; Path=/api; HttpOnly; SameSite=Strict; Max-Age=0',
    );
  });
});
