import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';

/** Bundles built by this process, by entry file URL. */
const bundled = new Map<string, URL>();

/**
 * A worker script (`entry`, a TypeScript file) as one plain JavaScript file, built with esbuild (a devDependency,
 * present wherever the sources run: vitest, tsx). Node 20 does not apply a process's tsx loader to a worker, and
 * registering tsx inside each worker costs about 0.2 s per worker (a loader thread of its own); a bundle starts in some
 * 30 ms. Built once per entry and process (about 50 ms) into node_modules/.cache, where its packages (better-sqlite3,
 * Kysely, gpt-tokenizer) resolve; named by content, written atomically.
 */
export function bundleWorkerScript(entry: URL): URL {
  const known = bundled.get(entry.href);
  if (known !== undefined) return known;
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof Esbuild;
  const entryPath = fileURLToPath(entry);
  const output = esbuild.buildSync({
    entryPoints: [entryPath],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
  });
  const code = output.outputFiles[0]?.text ?? '';
  const nodeModules = dirname(dirname(require.resolve('esbuild/package.json')));
  const folder = join(nodeModules, '.cache', 'gateway-workers');
  const name = basename(entryPath).replace(/\.ts$/, '');
  const file = join(folder, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    // Other test processes may build the same file at the same moment: each writes its own and renames it in place.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
  }
  const url = pathToFileURL(file);
  bundled.set(entry.href, url);
  return url;
}
