import type { RoutableChannel } from '../routing/routing-table.js';
import type { ChannelAttemptResult } from './channel-attempt-result.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { AttemptValue, DispatchRequestBase } from './dispatch-request.js';
import type { ResponseFactsCollector } from './response-facts-collector.js';

/** An attempt's span, opaque to dispatch: all dispatch does with it is hand it back and send its headers. */
export interface AttemptTrace {
  /** headers naming the attempt's span (`traceparent`) for the vendor, when the operator allows it; else undefined */
  readonly vendorHeaders: Record<string, string> | undefined;
  /** fed the answer's id, model and finish reasons while it is relayed; undefined when the span is not recording */
  readonly responseFacts: ResponseFactsCollector | undefined;
}

/** What telemetry reads of the request an attempt serves: its public model, whether it streams, its GenAI operation. */
export type ObservedRequest = Pick<DispatchRequestBase, 'modelId' | 'stream' | 'operationName'>;

/** What telemetry reads of a successful attempt: its status, the error a relayed answer ended in, its usage if any. */
export type ObservedAttemptValue = Pick<AttemptValue, 'status' | 'errorCode'> & { usage?: TokenUsage | undefined };

/**
 * What telemetry sees of the failover loop (server/ implements it with OpenTelemetry): every upstream attempt, from
 * before it is sent to its end, and every channel its breaker left out. Absent in apps built without telemetry.
 */
export interface DispatchObserver {
  /** Before one attempt (`attemptNumber` counts from 1): its span when tracing is on, else undefined (no work). */
  startAttempt(request: ObservedRequest, channel: RoutableChannel, attemptNumber: number): AttemptTrace | undefined;
  /**
   * After one attempt: its metrics, and its span's end. `startedAt` is `performance.now()` when it began; `result` is
   * undefined when the attempt threw (a fault of the gateway's own).
   */
  endAttempt(
    request: ObservedRequest,
    channel: RoutableChannel,
    startedAt: number,
    result: ChannelAttemptResult<ObservedAttemptValue> | undefined,
    trace: AttemptTrace | undefined,
  ): void;
  /** A channel left out because its circuit breaker is open: an event on the request's span. */
  channelSkipped(request: ObservedRequest, channel: RoutableChannel): void;
}
