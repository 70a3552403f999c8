import type { RoutableChannel } from '../routing/routing-table.js';
import type { ChannelAttemptResult } from './channel-attempt-result.js';
import type { AttemptValue, DispatchRequest } from './dispatch-request.js';
import type { ResponseFactsCollector } from './response-facts-collector.js';

/** An attempt's span, opaque to dispatch: all dispatch does with it is hand it back and send its headers. */
export interface AttemptTrace {
  /** headers naming the attempt's span (`traceparent`) for the vendor, when the operator allows it; else undefined */
  readonly vendorHeaders: Record<string, string> | undefined;
  /** fed the answer's id, model and finish reasons while it is relayed; undefined when the span is not recording */
  readonly responseFacts: ResponseFactsCollector | undefined;
}

/**
 * What telemetry sees of the failover loop (server/ implements it with OpenTelemetry): every upstream attempt, from
 * before it is sent to its end, and every channel its breaker left out. Absent in apps built without telemetry.
 */
export interface DispatchObserver {
  /** Before one attempt (`attemptNumber` counts from 1): its span when tracing is on, else undefined (no work). */
  startAttempt(request: DispatchRequest, channel: RoutableChannel, attemptNumber: number): AttemptTrace | undefined;
  /**
   * After one attempt: its metrics, and its span's end. `startedAt` is `performance.now()` when it began; `result` is
   * undefined when the attempt threw (a fault of the gateway's own).
   */
  endAttempt(
    request: DispatchRequest,
    channel: RoutableChannel,
    startedAt: number,
    result: ChannelAttemptResult<AttemptValue> | undefined,
    trace: AttemptTrace | undefined,
  ): void;
  /** A channel left out because its circuit breaker is open: an event on the request's span. */
  channelSkipped(request: DispatchRequest, channel: RoutableChannel): void;
}
