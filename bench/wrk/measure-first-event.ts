// Time to first streamed event at concurrency 1: sequential burst streams, each read to its end.
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { percentile } from '../statistics.js';
import type { ComparisonPath } from './comparison-paths.js';

/** p50 and p99 of the time from sending a request to the arrival of its first complete event, in milliseconds. */
export interface FirstEventResult {
  p50Ms: number;
  p99Ms: number;
  streams: number;
}

/** Runs `streams` streams one after another on one keep-alive connection; throws if any is incomplete. */
export async function measureFirstEvent(
  dispatcher: Dispatcher,
  path: ComparisonPath,
  body: string,
  streams: number,
): Promise<FirstEventResult> {
  const times: number[] = [];
  for (let index = 0; index < streams; index++) times.push(await timeFirstEvent(dispatcher, path, body));
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), streams };
}

/** The blank line that ends an event. */
const eventEnd = /\r?\n\r?\n/;

async function timeFirstEvent(dispatcher: Dispatcher, path: ComparisonPath, body: string): Promise<number> {
  const startedAt = performance.now();
  const response = await request(path.chatUrl, {
    method: 'POST',
    headers: { ...path.headers, accept: 'text/event-stream' },
    body,
    dispatcher,
  });
  let firstEventMs: number | undefined;
  let text = '';
  for await (const chunk of response.body) {
    text += (chunk as Buffer).toString('utf8');
    // An event is complete at its blank line.
    if (firstEventMs === undefined && eventEnd.test(text)) firstEventMs = performance.now() - startedAt;
  }
  if (response.statusCode !== 200 || firstEventMs === undefined || !text.trimEnd().endsWith('data: [DONE]')) {
    throw new Error(`${path.label}: an incomplete stream (status ${response.statusCode}): ${text.slice(0, 300)}`);
  }
  return firstEventMs;
}
