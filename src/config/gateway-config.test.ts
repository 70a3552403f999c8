import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './gateway-config.js';

describe('loadGatewayConfig: image URL fetching', () => {
  it('refuses private addresses, caps images at 20 MiB and fetches for at most 10 s by default', () => {
    const config = loadGatewayConfig({});
    expect(config.imageFetchAllowPrivateAddresses).toBe(false);
    expect(config.imageFetchMaxBytes).toBe(20_971_520);
    expect(config.imageFetchTimeoutMs).toBe(10_000);
  });

  it('reads the switch and the limits from the environment', () => {
    const config = loadGatewayConfig({
      GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES: 'on',
      GATEWAY_IMAGE_FETCH_MAX_BYTES: '1048576',
      GATEWAY_IMAGE_FETCH_TIMEOUT_MS: '2500',
    });
    expect(config).toMatchObject({
      imageFetchAllowPrivateAddresses: true,
      imageFetchMaxBytes: 1_048_576,
      imageFetchTimeoutMs: 2_500,
    });
    expect(
      loadGatewayConfig({ GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES: 'false' }).imageFetchAllowPrivateAddresses,
    ).toBe(false);
  });

  it('stops on a value it cannot read', () => {
    expect(() => loadGatewayConfig({ GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES: 'maybe' })).toThrow(
      /GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES must be on or off/,
    );
    expect(() => loadGatewayConfig({ GATEWAY_IMAGE_FETCH_MAX_BYTES: '-1' })).toThrow(/GATEWAY_IMAGE_FETCH_MAX_BYTES/);
  });
});

describe('loadGatewayConfig: default user groups', () => {
  it('grants `default` unless GATEWAY_DEFAULT_USER_GROUPS says otherwise; empty means none', () => {
    expect(loadGatewayConfig({}).defaultUserGroups).toEqual(['default']);
    expect(loadGatewayConfig({ GATEWAY_DEFAULT_USER_GROUPS: ' trial, default ,,' }).defaultUserGroups).toEqual([
      'trial',
      'default',
    ]);
    expect(loadGatewayConfig({ GATEWAY_DEFAULT_USER_GROUPS: '' }).defaultUserGroups).toEqual([]);
  });
});

describe('loadGatewayConfig: limits against hostile clients', () => {
  it('has the documented defaults', () => {
    expect(loadGatewayConfig({})).toMatchObject({
      requestTimeoutMs: 300_000,
      headersTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      maxConnectionsPerAddress: 1_024,
      maxInFlightRequests: 2_048,
      maxInFlightPerUser: 512,
      streamWriteTimeoutMs: 30_000,
    });
  });

  it('gives each user a quarter of the in-flight cap unless told otherwise, and none without a cap', () => {
    expect(loadGatewayConfig({ GATEWAY_MAX_IN_FLIGHT_REQUESTS: '10' }).maxInFlightPerUser).toBe(2);
    expect(loadGatewayConfig({ GATEWAY_MAX_IN_FLIGHT_REQUESTS: '0' }).maxInFlightPerUser).toBe(0);
    expect(loadGatewayConfig({ GATEWAY_MAX_IN_FLIGHT_PER_USER: '0' }).maxInFlightPerUser).toBe(0);
    expect(loadGatewayConfig({ GATEWAY_MAX_IN_FLIGHT_PER_USER: '7' }).maxInFlightPerUser).toBe(7);
  });

  it('reads each from the environment', () => {
    const config = loadGatewayConfig({
      GATEWAY_REQUEST_TIMEOUT_MS: '1000',
      GATEWAY_HEADERS_TIMEOUT_MS: '500',
      GATEWAY_KEEP_ALIVE_TIMEOUT_MS: '2000',
      GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: '0',
      GATEWAY_MAX_IN_FLIGHT_REQUESTS: '10',
      GATEWAY_STREAM_WRITE_TIMEOUT_MS: '0',
    });
    expect(config).toMatchObject({
      requestTimeoutMs: 1_000,
      headersTimeoutMs: 500,
      keepAliveTimeoutMs: 2_000,
      maxConnectionsPerAddress: 0,
      maxInFlightRequests: 10,
      streamWriteTimeoutMs: 0,
    });
  });
});
