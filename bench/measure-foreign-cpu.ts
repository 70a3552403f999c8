// Watches for CPU use by processes other than the benchmark's own (other jobs on a shared machine), which would
// make the numbers meaningless, and for time the hypervisor took from the machine (steal).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { BenchProcess } from './start-bench-processes.js';

/** One moment of the machine's and the benchmark's CPU counters, in milliseconds. */
export interface CpuSnapshot {
  atMs: number;
  machineBusyMs: number;
  machineStealMs: number;
  /** CPU time of the harness and of every benchmark process */
  benchmarkMs: number;
}

/** CPU other processes used during a phase, in cores (1 = one full core), and steal, in cores. */
export interface ForeignCpu {
  phase: string;
  seconds: number;
  foreignCores: number;
  stealCores: number;
}

/** /proc/stat counts in USER_HZ, 100 per second on Linux. */
const millisecondsPerTick = 10;

export async function snapshotCpu(processes: BenchProcess[]): Promise<CpuSnapshot> {
  const stats = await Promise.all(processes.map((benchProcess) => benchProcess.stats().catch(() => undefined)));
  const own = process.cpuUsage();
  const childrenMicros = stats.reduce((total, entry) => total + (entry?.cpuMicros ?? 0), 0);
  const { busyTicks, stealTicks } = readMachineTicks();
  return {
    atMs: performance.now(),
    machineBusyMs: busyTicks * millisecondsPerTick,
    machineStealMs: stealTicks * millisecondsPerTick,
    benchmarkMs: (own.user + own.system + childrenMicros) / 1000,
  };
}

export function foreignCpuBetween(phase: string, before: CpuSnapshot, after: CpuSnapshot): ForeignCpu {
  const wallMs = Math.max(1, after.atMs - before.atMs);
  const foreignMs = after.machineBusyMs - before.machineBusyMs - (after.benchmarkMs - before.benchmarkMs);
  return {
    phase,
    seconds: wallMs / 1000,
    foreignCores: Math.max(0, foreignMs) / wallMs,
    stealCores: (after.machineStealMs - before.machineStealMs) / wallMs,
  };
}

function readMachineTicks(): { busyTicks: number; stealTicks: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal ...
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busyTicks: user + nice + system + irq + softirq, stealTicks: steal };
  } catch {
    return { busyTicks: 0, stealTicks: 0 };
  }
}
