import type { EventSourceMessage } from 'eventsource-parser';
import type { GatewayError } from '../../core/gateway-error.js';
import type { TokenUsage } from '../../core/token-usage.js';
import type { UpstreamAttemptResult } from '../../providers/upstream-attempt-result.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import type { UpstreamHttpRequest } from '../send-upstream-request.js';

/** Thrown by `rewriteAnswer` when the vendor's body is not the answer the protocol expects (another channel may answer). */
export class UnreadableUpstreamAnswer extends Error {}

/** A non-streamed answer after the protocol's rewriting (ids mapped, usage read). */
export interface PassThroughAnswer {
  /** the JSON body sent to the client */
  body: string;
  /** the vendor's usage, when its answer reported it */
  usage: TokenUsage | undefined;
}

/** What one upstream event of a relayed stream becomes. */
export interface PassThroughRelayStep {
  /** complete SSE frames to send to the client (`event: ...\ndata: ...\n\n`); may be none */
  frames: string[];
  /** usage the event reported; a later one replaces an earlier one */
  usage?: TokenUsage;
  /** true when this event ended the answer (nothing after it is read) */
  terminal?: boolean;
  /** set when the event reported a vendor failure; before any frame was sent another channel is tried, after it the relay reads on to the terminal event */
  failure?: GatewayError;
  /** text the event generated (answer, reasoning, tool arguments): a stream that ends without usage is billed it, counted */
  generatedText?: string;
}

/** The state of one relayed stream: maps each upstream event, and ends a stream the upstream cut off. */
export interface PassThroughStreamRelay {
  /** the frames one upstream event causes; may wait (e.g. to store the final answer before its last frame goes out) */
  relayEvent(event: EventSourceMessage): PassThroughRelayStep | Promise<PassThroughRelayStep>;
  /** the frames that end a stream cut off after its first frame (the protocol's own failure ending) */
  cutOff(failure: GatewayError): string[];
}

/**
 * A client protocol that some channels speak natively (Responses to OpenAI channels with the Responses API,
 * Messages to Anthropic channels): the body passes through with minimal rewriting instead of being translated.
 * Set on a DispatchRequest by the route; dispatch plans it first for every channel it serves.
 */
export interface PassThroughProtocol {
  /** true when the channel speaks the client's protocol natively */
  servesChannel(channel: RoutableChannel): boolean;
  /** the upstream request for the channel and the model name it expects; may throw a 400 GatewayError */
  encode(channel: RoutableChannel, upstreamModelId: string): UpstreamHttpRequest;
  /** a non-2xx vendor answer as a gateway failure */
  mapFailure(
    status: number,
    bodyText: string,
    retryAfter: string | undefined,
    channel: RoutableChannel,
  ): UpstreamAttemptResult<never>;
  /** a non-streamed 2xx answer, rewritten for the client; throws UnreadableUpstreamAnswer when the body cannot be read */
  rewriteAnswer(bodyText: string, channel: RoutableChannel): PassThroughAnswer | Promise<PassThroughAnswer>;
  /** a fresh relay for one streamed answer from the channel */
  createStreamRelay(channel: RoutableChannel): PassThroughStreamRelay;
}
