import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../config/gateway-config.js';
import { createHttpServerLimits } from './create-http-server-limits.js';

describe('createHttpServerLimits', () => {
  it('passes the timeouts to Node and checks them four times per shortest timeout instead of every 30 s', () => {
    const limits = createHttpServerLimits(
      loadGatewayConfig({
        GATEWAY_HEADERS_TIMEOUT_MS: '2000',
        GATEWAY_REQUEST_TIMEOUT_MS: '8000',
        GATEWAY_KEEP_ALIVE_TIMEOUT_MS: '5000',
      }),
    );
    expect(limits).toMatchObject({
      requestTimeout: 8_000,
      keepAliveTimeout: 5_000,
      http: {
        headersTimeout: 2_000,
        requestTimeout: 8_000,
        connectionsCheckingInterval: 500,
        requireHostHeader: false,
      },
    });
  });

  it('never lets the headers timeout exceed the request timeout (Node refuses to start otherwise)', () => {
    const limits = createHttpServerLimits(
      loadGatewayConfig({ GATEWAY_HEADERS_TIMEOUT_MS: '60000', GATEWAY_REQUEST_TIMEOUT_MS: '10000' }),
    );
    expect(limits.http.headersTimeout).toBe(10_000);
  });
});
