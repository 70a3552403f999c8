// Reads the gateway's own Prometheus metrics: its request counter, to check it served what the harness sent, and its
// settlement backlog, so a run's bookkeeping is counted in that run.
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** How often the backlog is read while waiting for it to empty, in milliseconds. */
const settledPollIntervalMs = 50;
/** Longest wait for the backlog to empty, in milliseconds: the gateway writes it every 250 ms when it keeps up. */
const settledTimeoutMs = 60_000;

/** The sum of `gateway_requests_total` over all labels. */
export async function readGatewayRequestCount(gatewayUrl: string): Promise<number> {
  // A labelled counter has no sample line before its first request.
  return sumSamples(await readMetricsText(gatewayUrl), 'gateway_requests_total') ?? 0;
}

/**
 * Resolves once the gateway has written every settled request to its database (`gateway_settlement_backlog_rows` is
 * 0). The harnesses wait for it before and after each measured run, so the CPU of writing a run's usage rows is counted
 * in that run, and a gateway that defers its bookkeeping cannot pass it off as speed. Throws when the backlog has not
 * emptied within a minute: the database does not keep up with the load.
 */
export async function waitUntilGatewaySettled(gatewayUrl: string): Promise<void> {
  const deadline = Date.now() + settledTimeoutMs;
  for (;;) {
    const backlog = sumSamples(await readMetricsText(gatewayUrl), 'gateway_settlement_backlog_rows');
    // A gateway without the gauge could never be shown settled; failing beats measuring without the check.
    if (backlog === undefined)
      throw new Error("gateway_settlement_backlog_rows is missing from the gateway's /metrics");
    if (backlog === 0) return;
    if (Date.now() >= deadline)
      throw new Error(`the gateway still had ${backlog} settled requests to write after ${settledTimeoutMs / 1000} s`);
    await sleep(settledPollIntervalMs);
  }
}

async function readMetricsText(gatewayUrl: string): Promise<string> {
  const response = await request(`${gatewayUrl}/metrics`);
  return response.body.text();
}

/** The sum of a metric's samples (`name{...} value` or `name value` lines); undefined when it has none. */
function sumSamples(text: string, name: string): number | undefined {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) {
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
      found = true;
    }
  }
  return found ? total : undefined;
}
