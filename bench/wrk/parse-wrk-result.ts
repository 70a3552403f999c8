// Reads the one-line JSON summary the comparison's Lua script makes wrk print.

/** What wrk counted in one run. */
export interface WrkResult {
  /** completed requests (whole responses, streams included) */
  requests: number;
  /** how long wrk ran, in microseconds */
  durationMicros: number;
  /** bytes read from the server */
  bytes: number;
  /** socket errors by kind, and `status`: responses with a status of 400 or more */
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  /** request time from the first byte written to the last byte read, in microseconds */
  latencyMicros: { p50: number; p99: number; max: number };
}

/** Finds the line starting with `marker` in wrk's output and parses the JSON after it. */
export function parseWrkResult(output: string, marker: string): WrkResult {
  const line = output.split('\n').find((candidate) => candidate.startsWith(marker));
  if (line === undefined) throw new Error(`wrk printed no summary line:\n${output}`);
  return JSON.parse(line.slice(marker.length)) as WrkResult;
}

/** Requests per second of a run. */
export function requestsPerSecond(result: WrkResult): number {
  return result.requests / (result.durationMicros / 1e6);
}

/** Responses that were not successful or never completed: status errors, timeouts, and read/write/connect failures. */
export function failedRequests(result: WrkResult): number {
  const { connect, read, write, status, timeout } = result.errors;
  return connect + read + write + status + timeout;
}
