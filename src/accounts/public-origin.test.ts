import { describe, expect, it } from 'vitest';
import { isPlainHttpLoopback, resolvePublicOrigin } from './public-origin.js';

describe('public origin', () => {
  it('is GATEWAY_PUBLIC_URL when set, else loopback on the listening port', () => {
    expect(resolvePublicOrigin('https://gateway.example', 3000)).toBe('https://gateway.example');
    expect(resolvePublicOrigin(undefined, 4123)).toBe('http://127.0.0.1:4123');
  });

  it('drops Secure from cookies only for plain http on loopback', () => {
    expect(isPlainHttpLoopback('http://127.0.0.1:3000')).toBe(true);
    expect(isPlainHttpLoopback('http://localhost:3000')).toBe(true);
    expect(isPlainHttpLoopback('http://[::1]:3000')).toBe(true);
    expect(isPlainHttpLoopback('https://127.0.0.1')).toBe(false);
    expect(isPlainHttpLoopback('http://gateway.example')).toBe(false);
    expect(isPlainHttpLoopback('http://10.0.0.5')).toBe(false);
  });
});
