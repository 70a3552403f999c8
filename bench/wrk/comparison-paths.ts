// The five paths the wrk comparison measures side by side, each ending at the same mock upstream.
import type { MeasuredProcess } from './measured-process.js';

/** The name of a path, in the order the report lists them. */
export type ComparisonPathName = 'direct' | 'proxy' | 'portkey' | 'gateway' | 'unbilled';

/**
 * Every path, in report order. `unbilled` is our gateway again with `GATEWAY_BILLING=off`: measured in the same run,
 * the difference is what billing (admission, rate limits, pricing, settlement, usage logs and their writer) costs.
 */
export const comparisonPathNames: readonly ComparisonPathName[] = ['direct', 'proxy', 'portkey', 'gateway', 'unbilled'];

/** One path from wrk to the mock upstream. */
export interface ComparisonPath {
  name: ComparisonPathName;
  /** how the report names it */
  label: string;
  /** the chat completions URL wrk and the stream client post to */
  chatUrl: string;
  /** headers every request sends: authorization and content type, and Portkey's routing headers */
  headers: Record<string, string>;
  /** the process in the middle, whose CPU and memory are measured; none for `direct` */
  process: MeasuredProcess | undefined;
  /** our gateway's: resolves once it has written every settled request (see waitUntilGatewaySettled) */
  waitUntilSettled: (() => Promise<void>) | undefined;
}

/** How the report labels a path. */
export function labelOf(name: ComparisonPathName): string {
  switch (name) {
    case 'direct':
      return 'direct (mock upstream)';
    case 'proxy':
      return 'reference proxy';
    case 'portkey':
      return 'Portkey gateway 1.15.2';
    case 'gateway':
      return 'our gateway';
    case 'unbilled':
      return 'our gateway, billing off';
    default: {
      const unknown: never = name;
      throw new Error(`unknown path ${String(unknown)}`);
    }
  }
}
