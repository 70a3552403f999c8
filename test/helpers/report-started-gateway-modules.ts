// Child process for startup-modules.test.ts: starts the gateway as `gateway start` does (SQLite in a temporary folder,
// the console and its API on, no sign-in providers), asks for /healthz, stops it, and prints as JSON that answer's
// status, every file Node loaded and every locale-aware call the start made.
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
register(
  'data:text/javascript,' +
    encodeURIComponent(
      'let port; export function initialize(data) { port = data.port; } export async function load(url, context, next) { port.postMessage(url); return next(url, context); }',
    ),
  {
    data: { port: port2 },
    transferList: [port2],
  },
);

// Locale-aware calls go through ICU, whose tables Node maps from its own binary: the first collation or date format
// leaves megabytes resident for the process's life. Recorded while the gateway starts.
const localeCalls: string[] = [];
let recording = false;
const record = (name: string) => {
  if (recording) localeCalls.push(name);
};
for (const [owner, names] of [
  [String.prototype, ['localeCompare', 'normalize', 'toLocaleLowerCase', 'toLocaleUpperCase']],
  [Number.prototype, ['toLocaleString']],
  [Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
] as const) {
  for (const name of names) {
    const original = (owner as unknown as Record<string, (...values: unknown[]) => unknown>)[name]!;
    Object.defineProperty(owner, name, {
      value(this: unknown, ...values: unknown[]) {
        record(`${owner.constructor.name}.prototype.${name}`);
        return original.apply(this, values);
      },
    });
  }
}
for (const name of [
  'Collator',
  'DateTimeFormat',
  'NumberFormat',
  'PluralRules',
  'RelativeTimeFormat',
  'ListFormat',
  'Segmenter',
] as const) {
  const Original = Intl[name] as unknown as new (...values: unknown[]) => object;
  Object.defineProperty(Intl, name, {
    value: new Proxy(Original, {
      construct(target, values) {
        record(`Intl.${name}`);
        return new target(...values);
      },
    }),
  });
}

const dataDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-startup-modules-'));
const { loadGatewayConfig } = await import('../../src/config/gateway-config.js');
const { createLogger } = await import('../../src/observability/create-logger.js');
const { startGateway } = await import('../../src/runtime/start-gateway.js');
const config = loadGatewayConfig({
  GATEWAY_DATA_DIR: dataDirectory,
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_PORT: '0',
  GATEWAY_LOG_LEVEL: 'error',
});
recording = true;
const gateway = await startGateway(config, createLogger(config.logLevel));
recording = false;
const health = await fetch(`${gateway.url}/healthz`);
await gateway.close();
rmSync(dataDirectory, { recursive: true, force: true });
// Let the hook thread's last messages arrive.
await new Promise((resolve) => setTimeout(resolve, 50));
const files = [...loadedUrls, ...Object.keys(createRequire(import.meta.url).cache)];
process.stdout.write(JSON.stringify({ healthStatus: health.status, files, localeCalls }));
