// The benchmarks count the gateway's CPU until its settlement backlog is empty; a wait that returned early (or on a
// gateway without the gauge) would let deferred bookkeeping pass for speed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readGatewayRequestCount, waitUntilGatewaySettled } from '../../bench/read-gateway-metrics.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A /metrics endpoint that serves each text of `pages` in turn, then the last one again; returns its URL. */
async function serveMetrics(pages: string[]): Promise<{ url: string; reads: () => number }> {
  let reads = 0;
  server = createServer((_incoming, response) => {
    const page = pages[Math.min(reads, pages.length - 1)]!;
    reads += 1;
    response.writeHead(200, { 'content-type': 'text/plain' }).end(page);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, reads: () => reads };
}

const backlog = (rows: number) =>
  `# HELP gateway_settlement_backlog_rows Settled requests not yet written\n# TYPE gateway_settlement_backlog_rows gauge\ngateway_settlement_backlog_rows ${rows}\n`;

describe('the benchmark reading the gateway metrics', () => {
  it('waits until the settlement backlog is empty', async () => {
    const metrics = await serveMetrics([backlog(120), backlog(40), backlog(0)]);
    await waitUntilGatewaySettled(metrics.url);
    expect(metrics.reads()).toBe(3);
  });

  it('refuses a gateway whose /metrics has no backlog gauge instead of taking it as settled', async () => {
    const metrics = await serveMetrics(['gateway_requests_total{endpoint="chat",status="200"} 5\n']);
    await expect(waitUntilGatewaySettled(metrics.url)).rejects.toThrow(/gateway_settlement_backlog_rows is missing/);
  });

  it('sums the request counter over its labels, and counts none before the first request', async () => {
    const counted = await serveMetrics([
      'gateway_requests_total{endpoint="chat",status="200"} 5\ngateway_requests_total{endpoint="chat",status="429"} 2\n',
    ]);
    expect(await readGatewayRequestCount(counted.url)).toBe(7);
    await new Promise((resolve) => server?.close(resolve));
    const empty = await serveMetrics([
      '# HELP gateway_requests_total Finished /v1 requests\n# TYPE gateway_requests_total counter\n',
    ]);
    expect(await readGatewayRequestCount(empty.url)).toBe(0);
  });
});
