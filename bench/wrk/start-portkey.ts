// Starts the installed Portkey gateway as its package's bin does (`build/start-server.js --port=N`), headless (no
// log console UI, as a server runs it), pinned like our gateway, and waits until it answers HTTP.
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MeasuredProcess } from './measured-process.js';

const readyTimeoutMs = 30_000;
const stopTimeoutMs = 10_000;

/** Starts Portkey on a free loopback port; `core` pins it with taskset. */
export async function startPortkey(serverScript: string, core: string | undefined): Promise<MeasuredProcess> {
  const port = await findFreePort();
  const nodeArguments = [serverScript, `--port=${port}`, '--headless'];
  const [command, commandArguments] =
    core === undefined
      ? [process.execPath, nodeArguments]
      : ['taskset', ['-c', core, process.execPath, ...nodeArguments]];
  const child = spawn(command, commandArguments, {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Portkey exited with code ${child.exitCode} before it answered`);
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`Portkey did not answer on ${url} within ${readyTimeoutMs} ms`);
      }
      await sleep(100);
    }
  }
  return {
    name: 'Portkey',
    pid: child.pid ?? -1,
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
