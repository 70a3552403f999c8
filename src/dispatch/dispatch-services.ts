import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { RemoteImageFetcher } from '../providers/remote-image/remote-image.js';
import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { DispatchObserver } from './dispatch-observer.js';
import type { ForwardingStop } from './forwarding-stop.js';

/** What dispatch needs from the running gateway; `server/`'s GatewayServices provides all of it. */
export interface DispatchServices {
  config: {
    /** longest wait for a vendor's response headers, in milliseconds */
    upstreamHeadersTimeoutMs: number;
    /** longest wait between two chunks of a vendor's body, in milliseconds */
    upstreamBodyTimeoutMs: number;
    /** largest non-streamed vendor answer read, in bytes; larger ones are a 502 (default 64 MiB when absent) */
    upstreamMaxBodyBytes?: number;
    /** longest a non-streamed vendor answer may take, from its request sent to its body read, in milliseconds (0 = no limit; default 300000 when absent) */
    upstreamAnswerTimeoutMs?: number;
    /** how long a client that stopped reading may stall a stream before it is cut, in milliseconds (0 = forever) */
    streamWriteTimeoutMs: number;
    /** the most bytes of a stream read after its client left, for its usage; past it the stream is cut (default 32 MiB when absent) */
    abandonedStreamDrainMaxBytes?: number;
  };
  routing: { current: { channelsFor(modelId: string): readonly RoutableChannel[] } };
  /** connection pools to upstreams */
  dispatcher: Dispatcher;
  /** fetches image URLs for vendors that take image bytes only */
  remoteImageFetcher: RemoteImageFetcher;
  logger: Logger;
  metrics: GatewayMetrics;
  /** Unix milliseconds */
  clock: () => number;
  /** circuit breakers per (channel, model): which channels a request may go to, fed with every attempt's outcome */
  channelHealth: ChannelHealthService;
  /** a graceful shutdown, whose grace period's end cuts what is still forwarded; absent in apps built without one */
  inFlight?: ForwardingStop | undefined;
  /** traces and GenAI metrics of every upstream attempt; absent in apps built without telemetry */
  observer?: DispatchObserver | undefined;
}
