// One place for what a test gateway runs with: the production defaults, bound to loopback on a free port, quiet,
// with shorter timeouts and a slow refresh (tests refresh routing themselves).
import { loadGatewayConfig, type GatewayConfig } from '../../src/config/gateway-config.js';

/** Where a test gateway keeps its data; everything else has a test default. */
export interface TestGatewayStorage {
  dataDirectory: string;
  databaseUrl: string;
  secretKey: string;
}

/** The production defaults (read from an empty environment) with the test values and the caller's overrides on top. */
export function createTestGatewayConfig(
  storage: TestGatewayStorage,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  return {
    ...loadGatewayConfig({}),
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    upstreamHeadersTimeoutMs: 30_000,
    upstreamBodyTimeoutMs: 30_000,
    refreshIntervalMs: 60_000,
    upstreamConnectionsPerOrigin: 16,
    shutdownGraceMs: 2_000,
    ...storage,
    ...overrides,
  };
}
