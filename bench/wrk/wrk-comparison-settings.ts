// How long the wrk comparison runs: the layout in full, and a quick variant for before/after checks.

/** Durations and counts of one comparison run. */
export interface WrkComparisonSettings {
  mode: 'full' | 'quick';
  /** non-streamed load on each path right before each of its rounds, in seconds */
  warmupSeconds: number;
  /** runs of every measurement per path; the report shows medians */
  repetitions: number;
  /** length of each wrk run, in seconds */
  runSeconds: number;
  /** wrk connections (the issue's -c50) */
  connections: number;
  /** sequential streams per run for the time to first event at concurrency 1 */
  firstEventStreams: number;
  /** bytes of every request body (the 462) */
  bodyBytes: number;
  /** runs of one measurement at most when other processes disturb it (the least disturbed is kept) */
  attempts: number;
  /** how long to wait for a quiet machine before measuring a disturbed run again, in seconds */
  quietWaitSeconds: number;
  /** keep-alive connections of the reference proxy's undici Pool (the 128) */
  proxyConnections: number;
}

/** The layout: 3 s warm-up, two 15 s runs, medians. */
export const fullWrkSettings: WrkComparisonSettings = {
  mode: 'full',
  warmupSeconds: 3,
  repetitions: 2,
  runSeconds: 15,
  connections: 50,
  firstEventStreams: 500,
  bodyBytes: 462,
  attempts: 2,
  quietWaitSeconds: 30,
  proxyConnections: 128,
};

/** One 3 s run after a 1 s warm-up: for quick before/after checks, not for the document. */
export const quickWrkSettings: WrkComparisonSettings = {
  ...fullWrkSettings,
  mode: 'quick',
  warmupSeconds: 1,
  repetitions: 1,
  runSeconds: 3,
  firstEventStreams: 150,
  attempts: 1,
};
