/**
 * Requests in flight and open connections per route group (`v1_chat_completions`, `api`, `console`, ...), as plain
 * numbers the `/metrics` gauges read at each scrape. A connection counts under the group of the request it carries
 * now or carried last (`none` before its first request).
 */
export class InFlightCounts {
  /** route group -> requests whose response has not ended */
  readonly requests = new Map<string, number>();
  /** route group -> open connections whose latest request was of that group */
  readonly connections = new Map<string, number>();

  /** Adds `change` (+1 or −1) to the requests of `group`. */
  changeRequests(group: string, change: number): void {
    this.requests.set(group, (this.requests.get(group) ?? 0) + change);
  }

  /** Adds `change` (+1 or −1) to the connections of `group`. */
  changeConnections(group: string, change: number): void {
    this.connections.set(group, (this.connections.get(group) ?? 0) + change);
  }
}
