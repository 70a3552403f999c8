import { describe, expect, it } from 'vitest';
import { isFetchableAddress } from './is-fetchable-address.js';

describe('isFetchableAddress', () => {
  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['1.1.1.1', 'public IPv4'],
    ['93.184.216.34', 'public IPv4'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['2a00:1450:4007:80a::200e', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
  ])('allows %s (%s)', (address) => {
    expect(isFetchableAddress(address, false)).toBe(true);
    expect(isFetchableAddress(address, true)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.7', 'loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local cloud metadata'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['192.0.2.1', 'documentation (reserved)'],
    ['198.18.0.1', 'benchmarking (reserved)'],
    ['240.0.0.1', 'reserved 240/4'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex form'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2001:db8::1', 'IPv6 documentation'],
  ])('refuses %s (%s) unless private addresses are allowed', (address) => {
    expect(isFetchableAddress(address, false)).toBe(false);
    expect(isFetchableAddress(address, true)).toBe(true);
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
    ['not-an-address', 'not an IP address'],
    ['[::1]', 'bracketed (URL) form'],
  ])('always refuses %s (%s)', (address) => {
    expect(isFetchableAddress(address, false)).toBe(false);
    expect(isFetchableAddress(address, true)).toBe(false);
  });
});
