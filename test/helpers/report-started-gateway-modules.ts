// Child process for startup-modules.test.ts: starts the gateway as `gateway start` does (SQLite in a temporary folder,
// the console and its API on, no sign-in providers), asks for /healthz, stops it, and prints as JSON that answer's
// status and every file Node loaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';

const loadedUrls = new Set<string>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => loadedUrls.add(url));
port1.unref();
// An ES module load hook sees what `import` loads; CommonJS packages show in require's cache.
register('data:text/javascript,' + encodeURIComponent('let port; export function initialize(data) { port = data.port; } export async function load(url, context, next) { port.postMessage(url); return next(url, context); }'), {
  data: { port: port2 },
  transferList: [port2],
});

const dataDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-startup-modules-'));
const { loadGatewayConfig } = await import('../../src/config/gateway-config.js');
const { createLogger } = await import('../../src/observability/create-logger.js');
const { startGateway } = await import('../../src/runtime/start-gateway.js');
const config = loadGatewayConfig({ GATEWAY_DATA_DIR: dataDirectory, GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'error' });
const gateway = await startGateway(config, createLogger(config.logLevel));
const health = await fetch(`${gateway.url}/healthz`);
await gateway.close();
rmSync(dataDirectory, { recursive: true, force: true });
// Let the hook thread's last messages arrive.
await new Promise((resolve) => setTimeout(resolve, 50));
const files = [...loadedUrls, ...Object.keys(createRequire(import.meta.url).cache)];
process.stdout.write(JSON.stringify({ healthStatus: health.status, files }));
