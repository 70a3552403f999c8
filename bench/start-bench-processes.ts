// Starts the measured processes (gateway, reference proxy) and the upstream simulator as child processes,
// pinned to cores when `taskset` exists, and talks to them over IPC.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlMessage, ControlRequest, ProcessStats } from './child-control-protocol.js';

/** A child process the harness measures or depends on. */
export interface BenchProcess {
  name: string;
  pid: number;
  /** the address it listens on */
  url: string;
  /** what it reported when ready (e.g. the gateway's API key) */
  details: Record<string, string>;
  stats(): Promise<ProcessStats>;
  /** runs a full garbage collection in the process */
  collectGarbage(): Promise<void>;
  /** asks it to close and waits for it to exit */
  stop(): Promise<void>;
}

/** Which core runs what. */
export interface ProcessLayout {
  /** true when processes are pinned with taskset */
  pinned: boolean;
  /** core of the gateway and of the reference proxy (one at a time is under load) */
  measuredCore: string | undefined;
  /** core of the simulator and of the harness with its load generator */
  loadCore: string | undefined;
  description: string;
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const defaultReadyTimeoutMs = 60_000;
const stopTimeoutMs = 15_000;

/** Pins the harness to one core and the measured processes to another, when the machine and `taskset` allow. */
export function planProcessLayout(): ProcessLayout {
  const cores = availableParallelism();
  if (cores < 2 || !hasTaskset()) {
    return {
      pinned: false,
      measuredCore: undefined,
      loadCore: undefined,
      description: `not pinned (${cores} cores, taskset ${hasTaskset() ? 'present' : 'missing'})`,
    };
  }
  // -a: every thread of the harness, libuv's pool included.
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  return {
    pinned: true,
    measuredCore: '0',
    loadCore: '1',
    description:
      'taskset: gateway and reference proxy on core 0 (one under load at a time); simulator, harness and autocannon on core 1',
  };
}

/** Starts `scriptFile` (compiled or bundled JavaScript) under bare Node, pinned to `core` if given, and waits until it is ready. */
export async function startBenchProcess(options: {
  name: string;
  /** absolute path: `compiledBenchProcess(name)`, or the bundle of `bundleBenchGateway()` */
  scriptFile: string;
  core: string | undefined;
  environment: Record<string, string>;
  /** extra Node flags, e.g. `--cpu-prof` */
  nodeFlags?: string[];
  /** a command that runs Node, e.g. valgrind and its options (bench:instructions) */
  wrapper?: string[];
  /** how long it may take to say it is ready, in milliseconds (default a minute; far more under valgrind) */
  readyTimeoutMs?: number;
}): Promise<BenchProcess> {
  const processArguments = [
    ...(options.wrapper ?? []),
    process.execPath,
    '--expose-gc',
    ...(options.nodeFlags ?? []),
    options.scriptFile,
  ];
  const [command, commandArguments] =
    options.core === undefined
      ? [processArguments[0] as string, processArguments.slice(1)]
      : ['taskset', ['-c', options.core, ...processArguments]];
  const child = spawn(command, commandArguments, {
    cwd: projectRoot,
    env: { ...process.env, ...options.environment },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await waitForReady(child, options.name, options.readyTimeoutMs ?? defaultReadyTimeoutMs);
  return wrapChild(child, options.name, ready);
}

function waitForReady(
  child: ChildProcess,
  name: string,
  readyTimeoutMs: number,
): Promise<{ url: string; details: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${readyTimeoutMs} ms`)),
      readyTimeoutMs,
    );
    const onMessage = (message: ControlMessage): void => {
      if (message.type !== 'ready' && message.type !== 'failed') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (message.type === 'ready') resolve({ url: message.url, details: message.details });
      else reject(new Error(`${name} failed to start: ${message.message}`));
    };
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before it was ready`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function wrapChild(
  child: ChildProcess,
  name: string,
  ready: { url: string; details: Record<string, string> },
): BenchProcess {
  let nextId = 1;
  const pending = new Map<number, (stats: ProcessStats | undefined) => void>();
  child.on('message', (message: ControlMessage) => {
    if (message.type !== 'answer') return;
    pending.get(message.id)?.(message.stats);
    pending.delete(message.id);
  });
  const ask = (type: ControlRequest['type']): Promise<ProcessStats | undefined> =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error(`${name} is not running`));
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, type } satisfies ControlRequest);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    pid: child.pid ?? -1,
    url: ready.url,
    details: ready.details,
    stats: async () => (await ask('stats')) as ProcessStats,
    collectGarbage: async () => {
      await ask('gc');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ id: nextId++, type: 'stop' } satisfies ControlRequest);
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
