// Reads the gateway's own request counter from /metrics, to check it served what the harness sent.
import { request } from 'undici';

/** The sum of `gateway_requests_total` over all labels. */
export async function readGatewayRequestCount(gatewayUrl: string): Promise<number> {
  const response = await request(`${gatewayUrl}/metrics`);
  const text = await response.body.text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('gateway_requests_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
