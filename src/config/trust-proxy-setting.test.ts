import { describe, expect, it } from 'vitest';
import { readTrustProxySetting } from './trust-proxy-setting.js';

describe('readTrustProxySetting (GATEWAY_TRUST_PROXY)', () => {
  it('trusts no proxy when unset, empty or 0', () => {
    expect(readTrustProxySetting({})).toEqual({ kind: 'none' });
    expect(readTrustProxySetting({ GATEWAY_TRUST_PROXY: ' ' })).toEqual({ kind: 'none' });
    expect(readTrustProxySetting({ GATEWAY_TRUST_PROXY: '0' })).toEqual({ kind: 'none' });
  });

  it('reads a hop count', () => {
    expect(readTrustProxySetting({ GATEWAY_TRUST_PROXY: '2' })).toEqual({ kind: 'hops', hops: 2 });
  });

  it('reads addresses, CIDR ranges and the named ranges', () => {
    expect(readTrustProxySetting({ GATEWAY_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8,loopback' })).toEqual({
      kind: 'addresses',
      ranges: [
        { address: '10.0.0.0', prefixLength: 8, family: 'ipv4' },
        { address: '192.0.2.7', prefixLength: 32, family: 'ipv4' },
        { address: 'fd00::', prefixLength: 8, family: 'ipv6' },
        { address: '127.0.0.1', prefixLength: 8, family: 'ipv4' },
        { address: '::1', prefixLength: 128, family: 'ipv6' },
      ],
    });
  });

  it.each(['true', '*', '10.0.0.0/33', '300.1.1.1', 'proxy.example.com', '10.0.0.0/8/1', '-1', '::1/129'])(
    'refuses %s with a message naming the setting',
    (value) => {
      expect(() => readTrustProxySetting({ GATEWAY_TRUST_PROXY: value })).toThrow(/^GATEWAY_TRUST_PROXY must be/);
    },
  );
});
