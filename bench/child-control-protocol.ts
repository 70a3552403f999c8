// The IPC messages between the benchmark harness and the processes it measures (gateway, proxy, simulator).

/** A question from the harness; `id` pairs it with its answer. */
export type ControlRequest = { id: number; type: 'stats' } | { id: number; type: 'gc' } | { id: number; type: 'stop' };

/** Resource use of a measured process at one moment. */
export interface ProcessStats {
  /** user plus system CPU time since the process started, in microseconds */
  cpuMicros: number;
  /** resident set size now, in bytes */
  rssBytes: number;
  /** largest resident set size so far, in bytes */
  maxRssBytes: number;
  /** V8 heap in use now, in bytes */
  heapUsedBytes: number;
  /** V8 heap committed now (in use or kept for reuse), in bytes */
  heapTotalBytes: number;
  /** memory of C++ objects bound to JavaScript objects (buffers included), in bytes */
  externalBytes: number;
}

/** What a measured process sends: once `ready` with its addresses, then one answer per request. */
export type ControlMessage =
  | { type: 'ready'; url: string; details: Record<string, string> }
  | { type: 'failed'; message: string }
  | { type: 'answer'; id: number; stats?: ProcessStats };
