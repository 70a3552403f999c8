import { describe, expect, it } from 'vitest';
import {
  parseChildrenCpuTicks,
  parseCpuTicks,
  parseVmRssBytes,
  readProcessCpuMs,
  readProcessRssBytes,
} from '../../../bench/wrk/read-process-usage.js';

describe('process usage from /proc', () => {
  it('adds utime and stime, even when the command name holds spaces and brackets', () => {
    const stat = '4242 (node (my) app) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 11 0 500 1000000 2000';
    expect(parseCpuTicks(stat)).toBe(175);
  });

  it('adds cutime and cstime: the children the process waited for', () => {
    const stat = '4242 (node (my) app) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 25 30 12 20 0 11 0 500 1000000 2000';
    expect(parseChildrenCpuTicks(stat)).toBe(42);
  });

  it('reads VmRSS in bytes', () => {
    expect(parseVmRssBytes('Name:\tnode\nVmHWM:\t  200000 kB\nVmRSS:\t  123456 kB\nThreads:\t11\n')).toBe(
      123456 * 1024,
    );
  });

  it('reads this very process', () => {
    expect(readProcessCpuMs(process.pid)).toBeGreaterThan(0);
    expect(readProcessRssBytes(process.pid)).toBeGreaterThan(0);
  });
});
