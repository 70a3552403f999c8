// The benchmark's gateway process bundled as `npm run build` bundles the gateway (scripts/bundle-gateway.ts, ADR 0014),
// so the benchmark measures the code users run, source text and all.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { bundleGateway, workerThreadEntries } from '../scripts/bundle-gateway.js';
import { compiledRoot } from './compile-bench-processes.js';

const bundleDirectory = path.join(compiledRoot, 'gateway-bundle');

/** Bundles bench/processes/gateway-process.ts with the gateway's worker threads; returns the bundled script's path. */
export async function bundleBenchGateway(): Promise<string> {
  rmSync(bundleDirectory, { recursive: true, force: true });
  await bundleGateway(
    { 'gateway-process': 'bench/processes/gateway-process.ts', ...workerThreadEntries },
    bundleDirectory,
  );
  return path.join(bundleDirectory, 'gateway-process.js');
}
