import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';

let bundled: URL | undefined;

/**
 * The worker script as one plain JavaScript file, built from the TypeScript sources with esbuild (a devDependency,
 * present wherever the sources run: vitest, tsx). Node 20 does not apply a process's tsx loader to a worker, and
 * registering tsx inside each worker costs about 0.2 s per database (a loader thread of its own), which every test
 * that opens a database file would pay; a bundle starts in some 30 ms. Built once per process (about 50 ms) into
 * node_modules/.cache, where its packages (better-sqlite3, Kysely) resolve; named by content, written atomically.
 */
export function bundleSqliteWorkerScript(): URL {
  if (bundled !== undefined) return bundled;
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof Esbuild;
  const entry = fileURLToPath(new URL('./sqlite-worker-thread.ts', import.meta.url));
  const output = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', write: false });
  const code = output.outputFiles[0]?.text ?? '';
  const nodeModules = dirname(dirname(require.resolve('esbuild/package.json')));
  const folder = join(nodeModules, '.cache', 'gateway-sqlite-worker');
  const file = join(folder, `sqlite-worker-thread-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    // Other test processes may build the same file at the same moment: each writes its own and renames it in place.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
  }
  bundled = pathToFileURL(file);
  return bundled;
}
