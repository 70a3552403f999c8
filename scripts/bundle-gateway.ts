// `npm run build` (through `node --import tsx`): bundles the gateway's command line and its two worker threads into
// dist/gateway/, the files `npm start` and the `gateway` command run (ADR 0014). The benchmark bundles its gateway
// process with the same options, so it measures what users run.
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The worker threads' entry files, by the name the gateway looks for beside its own code (`locateWorkerScript`): each
 * is bundled to `<name>.js` in the same folder as the entry that starts it.
 */
export const workerThreadEntries: Record<string, string> = {
  'sqlite-worker-thread': 'src/storage/sqlite-worker/sqlite-worker-thread.ts',
  'tokenizer-worker-thread': 'src/billing/tokenizer-worker/tokenizer-worker-thread.ts',
};

/**
 * Packages left out of the bundle, where Node finds them in node_modules: native addons, and packages loaded only on
 * the first use of a feature (sign-in, payments, Bedrock, PostgreSQL, Redis, the tokenizer, Fastify's schema compilers
 * for route schemas the gateway does not declare), so that a gateway without that feature never reads their code, and
 * esbuild itself, which runs worker scripts only from TypeScript sources.
 */
export const packagesLoadedFromNodeModules = [
  'better-sqlite3',
  '@node-rs/argon2',
  'pg',
  'ioredis',
  'gpt-tokenizer',
  'openid-client',
  'stripe',
  'alipay-sdk',
  '@smithy/*',
  '@aws-crypto/*',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'esbuild',
];

/** Resolves `undici` (the package's entry, not its files) to `undici-for-bundle.cjs` beside this script. */
const slimUndiciEntry: esbuild.Plugin = {
  name: 'slim-undici-entry',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: path.join(projectRoot, 'scripts/undici-for-bundle.cjs') }));
  },
};

/**
 * Bundles `entryPoints` (output name → project-relative source file) into `outputDirectory` as ES modules. Comments and
 * whitespace go, names stay (stack traces and profiles read as the source does): V8 keeps the source text of every loaded
 * module for the life of the process, and under load the heap grows to twice what is alive (ADR 0010). Chunks that
 * entries share, and code loaded on first use (payment providers), are files of their own in the same folder, so
 * paths the code resolves from `import.meta.url` (worker scripts, `../../dist/console`) hold for every file.
 */
export async function bundleGateway(
  entryPoints: Record<string, string>,
  outputDirectory: string,
): Promise<esbuild.Metafile> {
  const result = await esbuild.build({
    absWorkingDir: projectRoot,
    entryPoints,
    outdir: outputDirectory,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'linked',
    external: packagesLoadedFromNodeModules,
    // CommonJS packages inside an ES module bundle call `require` for Node's own modules and the packages left out.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
    plugins: [slimUndiciEntry],
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

/** Where `npm start` and the `gateway` command find the bundled gateway. */
const gatewayBundleDirectory = path.join(projectRoot, 'dist/gateway');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Chunks are named by content: emptied first, so no earlier build's chunks stay behind.
  rmSync(gatewayBundleDirectory, { recursive: true, force: true });
  await bundleGateway({ main: 'src/cli/main.ts', ...workerThreadEntries }, gatewayBundleDirectory);
  chmodSync(path.join(gatewayBundleDirectory, 'main.js'), 0o755);
}
