// How long and how often each measurement runs, in full and in --quick mode.

/** Durations, counts and repetitions of every measurement. */
export interface BenchmarkSettings {
  mode: 'full' | 'quick';
  /** repetitions of each measurement; reported as median and min–max */
  repetitions: number;
  /** load before the first measurement of each target, in seconds */
  warmupSeconds: number;
  /** concurrency-1 latency: seconds per run */
  latencySeconds: number;
  /** throughput: connections and seconds per run */
  throughputConnections: number;
  throughputSeconds: number;
  /** sequential streams per run for the time to first byte */
  firstByteStreams: number;
  /** paced streams per run for chunk gaps, how many at once, and their shape */
  pacedStreams: number;
  pacedConcurrency: number;
  pacedChunkCount: number;
  pacedIntervalMs: number;
  /** memory: concurrent long streams, their shape, and how fast they are opened */
  memoryStreams: number;
  memoryChunkCount: number;
  memoryIntervalMs: number;
  memoryOpenBatch: number;
  /** wait after the streams end before reading RSS, in milliseconds */
  memorySettleMs: number;
  /** further idle time before the last RSS reading, in milliseconds (0 = none): V8's memory reducer returns unused heap only after the process has been idle for several seconds */
  memoryIdleMs: number;
  /** large bodies: seconds of the concurrency-1 run and of the loaded run, and its connections */
  largeBodyWarmupSeconds: number;
  largeBodyLatencySeconds: number;
  largeBodyThroughputSeconds: number;
  largeBodyConnections: number;
  /** upstream keep-alive connections the gateway may open (GATEWAY_UPSTREAM_CONNECTIONS) */
  gatewayUpstreamConnections: number;
}

/** The full run: the numbers docs/BENCHMARKS.md reports. */
export const fullSettings: BenchmarkSettings = {
  mode: 'full',
  repetitions: 3,
  warmupSeconds: 3,
  latencySeconds: 6,
  throughputConnections: 50,
  throughputSeconds: 10,
  firstByteStreams: 300,
  pacedStreams: 100,
  pacedConcurrency: 50,
  pacedChunkCount: 20,
  pacedIntervalMs: 20,
  memoryStreams: 1000,
  memoryChunkCount: 20,
  memoryIntervalMs: 500,
  memoryOpenBatch: 100,
  memorySettleMs: 3_000,
  memoryIdleMs: 40_000,
  largeBodyWarmupSeconds: 2,
  largeBodyLatencySeconds: 4,
  largeBodyThroughputSeconds: 5,
  largeBodyConnections: 10,
  gatewayUpstreamConnections: 2048,
};

/** Under a minute: fewer repetitions, shorter runs, 200 streams instead of 1,000. */
export const quickSettings: BenchmarkSettings = {
  ...fullSettings,
  mode: 'quick',
  repetitions: 1,
  warmupSeconds: 1,
  latencySeconds: 2,
  throughputSeconds: 2,
  firstByteStreams: 60,
  pacedStreams: 40,
  pacedConcurrency: 20,
  memoryStreams: 200,
  memoryChunkCount: 8,
  memoryIntervalMs: 250,
  memorySettleMs: 1_000,
  memoryIdleMs: 0,
  largeBodyWarmupSeconds: 0.5,
  largeBodyLatencySeconds: 1,
  largeBodyThroughputSeconds: 1,
};
