// Reads a process's CPU time and resident memory from /proc, so any process can be measured (Portkey included)
// without its cooperation. /proc/<pid>/stat sums every thread of the process.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let clockTicksPerSecond: number | undefined;

/** User plus system CPU time of every thread of `pid` so far, in milliseconds. */
export function readProcessCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return parseCpuTicks(stat) * (1000 / ticksPerSecond());
}

/** utime + stime (fields 14 and 15) of a /proc/<pid>/stat line, in clock ticks; the command name may hold spaces. */
export function parseCpuTicks(statLine: string): number {
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field N is fields[N - 3]
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU time of the children `pid` waited for (for the harness: every finished wrk run), in milliseconds. */
export function readWaitedChildrenCpuMs(pid: number): number {
  return parseChildrenCpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * (1000 / ticksPerSecond());
}

/** cutime + cstime (fields 16 and 17) of a /proc/<pid>/stat line: CPU of the children the process waited for, in clock ticks. */
export function parseChildrenCpuTicks(statLine: string): number {
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]);
}

/** The resident set size of `pid` now, in bytes (VmRSS of /proc/<pid>/status). */
export function readProcessRssBytes(pid: number): number {
  return parseVmRssBytes(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

/** VmRSS of a /proc/<pid>/status text, in bytes. */
export function parseVmRssBytes(statusText: string): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(statusText);
  if (!match) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]) * 1024;
}

/** Samples RSS every `intervalMs` until stopped; `stop()` returns the largest sample, in bytes. */
export function samplePeakRss(pid: number, intervalMs = 50): { stop(): number } {
  let peak = readProcessRssBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, readProcessRssBytes(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, readProcessRssBytes(pid));
    },
  };
}

function ticksPerSecond(): number {
  clockTicksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return clockTicksPerSecond;
}
