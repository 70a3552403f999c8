// Sends an exact number of identical requests with a fixed number in flight (bench:instructions counts per request).
import { Pool } from 'undici';
import type { BenchTarget } from '../bench-targets.js';

/** Sends `count` POSTs of `body` to `target`'s `/chat/completions`, `inFlight` at a time; throws on any non-200 answer. */
export async function sendCountedRequests(
  target: BenchTarget,
  body: string,
  options: { count: number; inFlight: number },
): Promise<void> {
  const base = new URL(target.baseUrl);
  const pool = new Pool(base.origin, { connections: options.inFlight });
  let sent = 0;
  const sendInTurn = async (): Promise<void> => {
    while (sent < options.count) {
      sent++;
      const response = await pool.request({
        method: 'POST',
        path: `${base.pathname}/chat/completions`,
        headers: { authorization: target.authorization, 'content-type': 'application/json' },
        body,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${target.name} answered ${response.statusCode}: ${text}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.inFlight }, sendInTurn));
  } finally {
    await pool.close();
  }
}
