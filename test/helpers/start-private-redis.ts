// A Redis server of the test's own (own port, no persistence), so a fault test can stop, freeze and empty it without
// touching the Redis other tests share.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { isContinuousIntegration } from './postgres-test-database.js';
import { findFreePort } from './find-free-port.js';

/** A running private Redis and the faults a test can put it through. */
export interface PrivateRedis {
  url: string;
  /** shuts the server down (its data goes with it: no persistence) until `start` */
  stop(): Promise<void>;
  /** starts it again on the same port, empty */
  start(): Promise<void>;
  /** SIGSTOP: the server keeps its connections open and answers nothing, like a stuck server or a partition */
  freeze(): void;
  /** SIGCONT after `freeze` */
  thaw(): void;
  /** FLUSHALL: every key is gone, as after a restart without persistence */
  empty(): Promise<void>;
  /** stops it for good */
  remove(): Promise<void>;
}

/** Whether redis-server is installed; in CI its absence is an error, not a reason to skip. */
export function canStartPrivateRedis(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    if (isContinuousIntegration())
      throw new Error('redis-server is missing; CI must install it (.ci/start-redis.sh)', { cause: error });
    return false;
  }
}

/** Starts `redis-server --port <free> --save '' --appendonly no` on loopback. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await findFreePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child.on('error', () => undefined);
    server = child;
    await waitForPing(url);
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // A frozen server ignores SIGTERM until it runs again.
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    start,
    stop,
    freeze: () => server?.kill('SIGSTOP'),
    thaw: () => server?.kill('SIGCONT'),
    async empty() {
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      await client.flushall();
      await client.quit();
    },
    remove: stop,
  };
}

async function waitForPing(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      await client.quit();
      return;
    } catch (error) {
      client.disconnect();
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
