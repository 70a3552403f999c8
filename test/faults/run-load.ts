// A few concurrent clients that keep calling a gateway until told to stop, recording every answer's status, time and
// Retry-After, so a fault test can say what clients saw before, during and after a store outage.
import { request } from 'undici';

/** One answer a load client got. */
export interface LoadAnswer {
  /** HTTP status, or 0 when no answer came at all (connection refused or reset, client timeout) */
  status: number;
  /** Unix milliseconds when the request was sent */
  sentAt: number;
  /** milliseconds until the whole answer was read */
  elapsedMs: number;
  retryAfter: string | undefined;
  /** the body's `error.code` for an error answer */
  errorCode: string | undefined;
}

/** Running load: what was answered so far, and how to stop it. */
export interface RunningLoad {
  answers: LoadAnswer[];
  /** stops sending and resolves when every client's last request was answered */
  stop(): Promise<LoadAnswer[]>;
}

/** One request of the load: the URL, and how it is sent. */
export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Starts `clients` loops each sending `next()` one after another, as fast as they are answered (plus `pauseMs`). */
export function runLoad(options: {
  clients: number;
  next: (client: number) => LoadRequest;
  pauseMs?: number;
  clientTimeoutMs?: number;
}): RunningLoad {
  const answers: LoadAnswer[] = [];
  let stopping = false;
  const loops = Array.from({ length: options.clients }, async (_, client) => {
    while (!stopping) {
      answers.push(await send(options.next(client), options.clientTimeoutMs ?? 15_000));
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  });
  return {
    answers,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

/** Sends one request and reads its whole answer; never rejects (a failure to get an answer is status 0). */
export async function send(load: LoadRequest, clientTimeoutMs = 15_000): Promise<LoadAnswer> {
  const sentAt = Date.now();
  try {
    const response = await request(load.url, {
      method: load.method,
      headers: load.headers,
      body: load.body,
      headersTimeout: clientTimeoutMs,
      bodyTimeout: clientTimeoutMs,
    });
    const text = await response.body.text();
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.statusCode,
      sentAt,
      elapsedMs: Date.now() - sentAt,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
      errorCode: response.statusCode >= 400 ? errorCodeOf(text) : undefined,
    };
  } catch {
    return { status: 0, sentAt, elapsedMs: Date.now() - sentAt, retryAfter: undefined, errorCode: undefined };
  }
}

function errorCodeOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || !('error' in parsed)) return undefined;
    const error: unknown = parsed.error;
    if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
    return typeof error.code === 'string' ? error.code : undefined;
  } catch {
    return undefined;
  }
}

/** Asks `probe` every 100 ms until `accept` takes its answer or `timeoutMs` passes; returns the last answer. */
export async function askUntil<Answer>(
  probe: () => Promise<Answer>,
  accept: (answer: Answer) => boolean,
  timeoutMs: number,
): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  let answer = await probe();
  while (!accept(answer) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await probe();
  }
  return answer;
}
