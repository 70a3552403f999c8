// Installs the Portkey gateway (the Node peer of the comparison) from npm into a cache folder, never into the
// project: its code is not ours to commit. Portkey's streamed responses fail with "TypeError: immutable" unless
// `@hono/node-server` and `hono` are held at the versions it was built against, so npm `overrides` pin them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compiledRoot } from '../compile-bench-processes.js';

/** The versions the comparison runs. */
export const portkeyVersions = { gateway: '1.15.2', honoNodeServer: '1.13.5', hono: '4.9.7' } as const;

/** Where Portkey is installed (inside node_modules, so git ignores it). */
export const portkeyFolder = path.join(compiledRoot, 'portkey');

/** Returns the path of Portkey's server script; installs it first unless the right versions are already there. */
export function ensurePortkey(log: (message: string) => void): string {
  const serverScript = path.join(portkeyFolder, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (installedVersionsMatch()) return serverScript;
  log(`installing @portkey-ai/gateway@${portkeyVersions.gateway} into ${path.relative(process.cwd(), portkeyFolder)}`);
  mkdirSync(portkeyFolder, { recursive: true });
  const manifest = {
    name: 'gateway-bench-portkey',
    private: true,
    dependencies: { '@portkey-ai/gateway': portkeyVersions.gateway },
    overrides: { '@hono/node-server': portkeyVersions.honoNodeServer, hono: portkeyVersions.hono },
  };
  writeFileSync(path.join(portkeyFolder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error'], {
    cwd: portkeyFolder,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (!installedVersionsMatch())
    throw new Error(
      `Portkey's install in ${portkeyFolder} does not have the pinned versions ${JSON.stringify(portkeyVersions)}`,
    );
  return serverScript;
}

function installedVersionsMatch(): boolean {
  return (
    installedVersion('@portkey-ai/gateway') === portkeyVersions.gateway &&
    installedVersion('@hono/node-server') === portkeyVersions.honoNodeServer &&
    installedVersion('hono') === portkeyVersions.hono
  );
}

function installedVersion(packageName: string): string | undefined {
  const manifest = path.join(portkeyFolder, 'node_modules', packageName, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}
