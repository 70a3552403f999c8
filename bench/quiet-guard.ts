// Shared machines: measures how much CPU other processes took during each run, and runs a disturbed run again
// once the machine is quiet, keeping the least disturbed attempt. Short runs fit into short quiet windows.
import { foreignCpuBetween, snapshotCpu, type ForeignCpu } from './measure-foreign-cpu.js';
import type { BenchProcess } from './start-bench-processes.js';
import { quietBelowCores, waitForQuietMachine } from './wait-for-quiet-machine.js';

export class QuietGuard {
  private readonly worstByPhase = new Map<string, ForeignCpu>();

  constructor(
    private readonly options: {
      processes: BenchProcess[];
      /** runs per measurement at most; 1 measures once whatever the load */
      attempts: number;
      /** how long to wait for a quiet machine before an attempt again, in seconds */
      maximumWaitSeconds: number;
      log: (message: string) => void;
    },
  ) {}

  /** Runs `measure`, again if other processes disturbed it; `phase` groups runs in the report. */
  async run<Result>(phase: string, measure: () => Promise<Result>): Promise<Result> {
    const { processes, attempts, maximumWaitSeconds, log } = this.options;
    let best: { result: Result; foreign: ForeignCpu } | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await waitForQuietMachine(maximumWaitSeconds, log);
      const before = await snapshotCpu(processes);
      const result = await measure();
      const foreign = foreignCpuBetween(phase, before, await snapshotCpu(processes));
      if (!best || foreign.foreignCores < best.foreign.foreignCores) best = { result, foreign };
      if (foreign.foreignCores <= quietBelowCores) break;
      const next = attempt < attempts ? 'measuring it again' : 'keeping the least disturbed attempt';
      log(`a "${phase}" run was disturbed by ${foreign.foreignCores.toFixed(2)} cores of other load; ${next}`);
    }
    const chosen = best as { result: Result; foreign: ForeignCpu };
    const worst = this.worstByPhase.get(phase);
    if (!worst || chosen.foreign.foreignCores > worst.foreignCores) this.worstByPhase.set(phase, chosen.foreign);
    return chosen.result;
  }

  /** Per phase, the foreign load of its most disturbed kept run. */
  summary(): ForeignCpu[] {
    return [...this.worstByPhase.values()];
  }
}
