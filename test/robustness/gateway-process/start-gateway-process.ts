// Starts run-gateway-process.ts in a child Node process, so a test can measure the gateway's memory alone and
// see whether hostile input killed it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { GatewayProcessSeed } from './gateway-process-seed.js';

/** A gateway running in its own process. */
export interface GatewayProcess {
  seed: GatewayProcessSeed;
  child: ChildProcess;
  /** true while the process has not exited */
  isAlive(): boolean;
  /** what the process wrote to stderr (its error log), for failure messages */
  errorOutput(): string;
  /** resident memory now, in bytes, from /proc */
  residentBytes(): Promise<number>;
  /** the highest resident memory since the last `resetPeakResident()` (or start), in bytes */
  peakResidentBytes(): Promise<number>;
  /** starts a new peak measurement (Linux `clear_refs`); false when the kernel does not allow it */
  resetPeakResident(): Promise<boolean>;
  /** SIGTERM, then waits for the exit */
  stop(): Promise<void>;
}

const entryFile = fileURLToPath(new URL('./run-gateway-process.ts', import.meta.url));

/** Spawns the gateway with `environment` (GATEWAY_* settings and the ROBUSTNESS_* upstream) and waits for READY. */
export async function startGatewayProcess(environment: Record<string, string>): Promise<GatewayProcess> {
  // The production Node flag (docs/CONFIGURATION.md), so memory is measured as users run it.
  const child = spawn(process.execPath, ['--max-semi-space-size=4', '--import', 'tsx', entryFile], {
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const seed = await new Promise<GatewayProcessSeed>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(JSON.parse(line.slice('READY '.length)) as GatewayProcessSeed);
    });
    child.once('exit', (code) =>
      reject(new Error(`gateway process exited with ${code} before it was ready:\n${stderr}`)),
    );
  });
  const statusField = async (name: string): Promise<number> => {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${name} in /proc/${child.pid}/status`);
    return Number(match[1]) * 1024;
  };
  return {
    seed,
    child,
    isAlive: () => child.exitCode === null && child.signalCode === null,
    errorOutput: () => stderr,
    residentBytes: () => statusField('VmRSS'),
    peakResidentBytes: () => statusField('VmHWM'),
    resetPeakResident() {
      return writeFile(`/proc/${child.pid}/clear_refs`, '5').then(
        () => true,
        () => false,
      );
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
