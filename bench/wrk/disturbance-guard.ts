// On a shared machine, measures how much CPU other processes took during each run of the wrk comparison and runs a
// disturbed run again once the machine is quiet, keeping the least disturbed attempt. The benchmark's own CPU is the
// harness, the children it waited for (wrk) and the processes on the paths, all read from /proc.
import { foreignCpuBetween, snapshotCpu, type CpuSnapshot, type ForeignCpu } from '../measure-foreign-cpu.js';
import { quietBelowCores, waitForQuietMachine } from '../wait-for-quiet-machine.js';
import { readProcessCpuMs, readWaitedChildrenCpuMs } from './read-process-usage.js';

/** Reruns disturbed measurements and remembers the foreign load of every kept one. */
export class DisturbanceGuard {
  /** every kept run's foreign load, in run order */
  readonly kept: ForeignCpu[] = [];

  constructor(
    private readonly options: {
      /** pids of the processes on the paths (mock upstream, proxy, Portkey, gateway) */
      pids: number[];
      /** runs per measurement at most; 1 measures once whatever the load */
      attempts: number;
      /** how long to wait for a quiet machine before another attempt, in seconds */
      maximumWaitSeconds: number;
      log: (message: string) => void;
    },
  ) {}

  /** Runs `measure`, again if other processes disturbed it; `phase` names it in the log and the results. */
  async run<Result>(phase: string, measure: () => Promise<Result>): Promise<Result> {
    let best: { result: Result; foreign: ForeignCpu } | undefined;
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      if (attempt > 1) await waitForQuietMachine(this.options.maximumWaitSeconds, this.options.log);
      const before = await this.snapshot();
      const result = await measure();
      const foreign = foreignCpuBetween(phase, before, await this.snapshot());
      if (!best || foreign.foreignCores < best.foreign.foreignCores) best = { result, foreign };
      if (foreign.foreignCores <= quietBelowCores) break;
      const next = attempt < this.options.attempts ? 'measuring it again' : 'keeping the least disturbed attempt';
      this.options.log(`${phase} was disturbed by ${foreign.foreignCores.toFixed(2)} cores of other load; ${next}`);
    }
    const chosen = best as { result: Result; foreign: ForeignCpu };
    this.kept.push(chosen.foreign);
    return chosen.result;
  }

  /** The most disturbed kept run, or undefined before any run. */
  worst(): ForeignCpu | undefined {
    return this.kept.reduce<ForeignCpu | undefined>(
      (worst, entry) => (!worst || entry.foreignCores > worst.foreignCores ? entry : worst),
      undefined,
    );
  }

  private async snapshot(): Promise<CpuSnapshot> {
    const machine = await snapshotCpu([]);
    const pathsMs = this.options.pids.reduce((total, pid) => total + readProcessCpuMs(pid), 0);
    const waitedChildrenMs = readWaitedChildrenCpuMs(process.pid);
    return { ...machine, benchmarkMs: machine.benchmarkMs + pathsMs + waitedChildrenMs };
  }
}
