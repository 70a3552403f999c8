// The three paths every measurement compares: client to simulator directly, through the reference proxy, through the gateway.
import type { BenchProcess } from './start-bench-processes.js';

/** The name of a measured path. */
export type TargetName = 'direct' | 'proxy' | 'gateway';

/** One path from the load generator to the simulator. */
export interface BenchTarget {
  name: TargetName;
  /** base URL ending in `/v1` */
  baseUrl: string;
  /** the `Authorization` header value this path accepts */
  authorization: string;
  /** the process in the middle, whose CPU and memory are measured; none for `direct` */
  process: BenchProcess | undefined;
  /** the gateway's: resolves once it has written every settled request (see waitUntilGatewaySettled) */
  waitUntilSettled?: () => Promise<void>;
}

/** All three targets, in a fixed order. */
export interface BenchTargets {
  direct: BenchTarget;
  proxy: BenchTarget;
  gateway: BenchTarget;
}

/** The order of targets in repetition `round`: rotated so no path always runs first (warmest) or last. */
export function targetsInRound(targets: BenchTargets, round: number): BenchTarget[] {
  const ordered = [targets.direct, targets.proxy, targets.gateway];
  const shift = round % ordered.length;
  return [...ordered.slice(shift), ...ordered.slice(0, shift)];
}

/** JSON POST headers for a target. */
export function jsonHeaders(target: BenchTarget): Record<string, string> {
  return { authorization: target.authorization, 'content-type': 'application/json' };
}
