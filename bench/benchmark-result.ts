// The shape of bench/results/<date>.json.
import type { BenchmarkSettings } from './benchmark-settings.js';
import type { MachineInfo } from './collect-machine-info.js';
import type { LargeBodyResult } from './measure-large-bodies.js';
import type { ForeignCpu } from './measure-foreign-cpu.js';
import type { LatencyResult } from './measure-latency.js';
import type { StreamMemoryResult } from './measure-memory.js';
import type { StreamsResult } from './measure-streams.js';
import type { ThroughputResult } from './measure-throughput.js';
import type { ProcessLayout } from './start-bench-processes.js';

/** One speed target and whether this run met it. */
export interface TargetVerdict {
  name: string;
  /** the goal in words, e.g. `≥ 0.6 × proxy` */
  goal: string;
  /** the measured value in words, median and range */
  measured: string;
  pass: boolean;
}

/** Everything one benchmark run measured. */
export interface BenchmarkResult {
  /** ISO time the run started */
  startedAt: string;
  durationSeconds: number;
  command: string;
  machine: MachineInfo;
  layout: ProcessLayout;
  settings: BenchmarkSettings;
  /** RSS right after start and a few warm-up requests, in bytes */
  idleRssBytes: { gateway: number; proxy: number };
  latency: LatencyResult;
  throughput: ThroughputResult;
  streams: StreamsResult;
  memory: { gateway: StreamMemoryResult; proxy: StreamMemoryResult };
  largeBodies: LargeBodyResult[];
  /** the gateway's own count of finished requests (from /metrics), as a check that it served what the harness sent */
  gatewayRequestsCounted: number;
  /** CPU used by other processes on the machine during each phase; above ~0.1 cores the phase's numbers are disturbed */
  foreignCpu: ForeignCpu[];
  targets: TargetVerdict[];
}
