// Runs autocannon against one target and keeps every response time at full resolution
// (autocannon's own latency histogram rounds to whole milliseconds, too coarse for sub-millisecond targets).
import autocannon from 'autocannon';

/** What one load run sends. */
export interface LoadRequest {
  /** full URL, e.g. `http://127.0.0.1:PORT/v1/chat/completions` */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The outcome of one load run. */
export interface LoadRunResult {
  /** 2xx responses */
  completed: number;
  /** non-2xx responses plus connection errors and timeouts */
  failed: number;
  /** wall time of the run, in seconds */
  durationSeconds: number;
  /** completed per second */
  requestsPerSecond: number;
  /** response time of each 2xx response, in milliseconds (only when asked for) */
  latenciesMs: number[];
}

/** Sends `request` over `connections` keep-alive connections for `durationSeconds`. */
export async function runLoad(
  request: LoadRequest,
  options: { connections: number; durationSeconds: number; keepLatencies: boolean },
): Promise<LoadRunResult> {
  const latenciesMs: number[] = [];
  const instance = autocannon({
    url: request.url,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
  });
  if (options.keepLatencies) {
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTimeMs);
    });
  }
  const result = await instance;
  const failed = result.non2xx + result.errors + result.timeouts;
  return {
    completed: result['2xx'],
    failed,
    durationSeconds: result.duration,
    requestsPerSecond: result['2xx'] / result.duration,
    latenciesMs,
  };
}
