// What the benchmark ran on: CPU, memory, Node and the versions of the libraries that matter for speed.
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The machine and software of one run. */
export interface MachineInfo {
  cores: number;
  /** `model name` from /proc/cpuinfo */
  cpuModel: string;
  memoryBytes: number;
  kernel: string;
  nodeVersion: string;
  /** installed versions of fastify, undici, autocannon, pino, prom-client, zod */
  packages: Record<string, string>;
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportedPackages = ['fastify', 'undici', 'autocannon', 'pino', 'prom-client', 'zod', 'tsx'];

export function collectMachineInfo(): MachineInfo {
  return {
    // os.cpus(), not availableParallelism(): the harness has pinned itself to one core by now.
    cores: cpus().length,
    cpuModel: readCpuModel(),
    memoryBytes: totalmem(),
    kernel: release(),
    nodeVersion: process.version,
    packages: Object.fromEntries(reportedPackages.map((name) => [name, readInstalledVersion(name)])),
  };
}

function readCpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('model name'));
    return line?.split(':')[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function readInstalledVersion(name: string): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
      version?: string;
    };
    return manifest.version ?? 'unknown';
  } catch {
    return 'not installed';
  }
}
