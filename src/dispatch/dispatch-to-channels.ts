import { GatewayError } from '../core/gateway-error.js';
import { orderChannelsForAttempt } from '../routing/order-channels-for-attempt.js';
import { preferCachedChannel } from '../routing/prefer-cached-channel.js';
import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';
import { affinityKeyFor } from './affinity-key-for.js';
import { attemptChannel } from './attempt-channel.js';
import { cacheAffinityOf } from './cache-affinity-of.js';
import { ChannelBreakerGate } from './channel-breaker-gate.js';
import { channelOutcomeOfAttempt } from './channel-outcome-of-attempt.js';
import type { ClientSink } from './client-sink.js';
import type { DispatchOutcome, DispatchRequest } from './dispatch-request.js';
import type { DispatchServices } from './dispatch-services.js';
import { ForwardingControl } from './forwarding-control.js';
import { channelSkipped, tryChannelsInOrder } from './try-channels-in-order.js';

const noAnswer = {
  usage: undefined,
  firstByteAt: undefined,
  generatedText: undefined,
  answerUsage: undefined,
} as const;

/** What the usage log records for a request whose client left first (nginx's 499). */
const clientClosedStatus = { status: 499, errorCode: 'client_closed_request' } as const;

/**
 * The one failover loop: sends the request to the model's channels in priority order, failing over while nothing has
 * reached the client and the client is still there. A client that leaves after a non-streamed request was sent does
 * not abort it: the answer is read (within the upstream timeouts) so it can be billed for what the vendor did; see
 * ForwardingControl. Channels whose circuit breaker is open are left out (all tried, soonest to recover first, when
 * every one is open), and each attempt's end is recorded on the channel's breaker for the model (ChannelBreakerGate).
 * A request with a prompt prefix key goes first to the channel that last served that key, when it is among the
 * healthy channels of the first priority (cache-sticky routing: the vendor's prompt cache holds the prefix there); the
 * key is computed only when the model has more than one channel for the request (affinityKeyFor).
 * Throws a GatewayError when no channel answered and the client's answer is still the framework's.
 */
export async function dispatchToChannels(
  request: DispatchRequest,
  client: ClientSink,
  services: DispatchServices,
): Promise<DispatchOutcome> {
  const control = new ForwardingControl({
    client,
    stream: request.stream,
    stop: services.inFlight,
    drainMaxBytes: services.config.abandonedStreamDrainMaxBytes,
  });
  const servingChannels = services.routing.current.channelsFor(request.modelId);
  const breakerGate = new ChannelBreakerGate(services.channelHealth, request.modelId);
  const candidates = request.acceptsChannel ? servingChannels.filter(request.acceptsChannel) : servingChannels;
  const affinityKey = affinityKeyFor(request.modelId, request.cacheAffinityKey, candidates.length);
  const affinity = affinityKey === undefined ? undefined : cacheAffinityOf(services.routing);
  const ordered = orderChannelsForAttempt(candidates);
  const healthy = breakerGate.choose(ordered);
  const observer = services.observer;
  // Channels an open breaker left out are told to telemetry (an event on the request's span); none in the usual case.
  if (observer && healthy.length < ordered.length)
    for (const channel of ordered) if (!healthy.includes(channel)) observer.channelSkipped(request, channel);
  const channels =
    affinity && affinityKey !== undefined ? preferCachedChannel(healthy, affinity.channelFor(affinityKey)) : healthy;
  let channelId: string | undefined;
  let attemptNumber = 0;
  try {
    const success = await tryChannelsInOrder(channels, async (channel) => {
      if (!breakerGate.admit(channel)) {
        observer?.channelSkipped(request, channel);
        return channelSkipped;
      }
      channelId = channel.id;
      attemptNumber += 1;
      const startedAt = observer ? performance.now() : 0;
      const trace = observer?.startAttempt(request, channel, attemptNumber);
      // Thrown only once the answer began (or by a fault of the gateway's own): that says nothing about the channel.
      let outcome: ChannelOutcome = { kind: 'inconclusive' };
      let attemptResult: Awaited<ReturnType<typeof attemptChannel>> | undefined;
      try {
        const result = await attemptChannel({
          request,
          channel,
          client,
          services,
          control,
          vendorHeaders: trace?.vendorHeaders,
          responseFacts: trace?.responseFacts,
        });
        attemptResult = result;
        // A stream its client left says nothing of the channel, however its drain ended (a stall, the byte cap).
        outcome =
          request.stream && control.abandoned && control.sentUpstream
            ? { kind: 'cancelled' }
            : channelOutcomeOfAttempt(result, control.abandoned);
        // A client that left must not make the gateway try (and pay for) further channels.
        if (result.kind === 'retryable-failure' && control.abandoned)
          return { kind: 'final-failure', error: result.error };
        return result;
      } finally {
        breakerGate.record(channel, outcome);
        observer?.endAttempt(request, channel, startedAt, attemptResult, trace);
      }
    });
    if (affinity && affinityKey !== undefined) affinity.remember(affinityKey, success.channel.id);
    if (control.abandoned) {
      const usageUnknown = abandonedWithoutUsage(request, control, success.value.usage);
      return {
        channelId,
        ...success.value,
        ...clientClosedStatus,
        clientAborted: true,
        sentUpstream: control.sentUpstream,
        usageUnknown,
        // Its text is not counted: the bill is the vendor's usage or the hold.
        generatedText: usageUnknown ? undefined : success.value.generatedText,
      };
    }
    return {
      channelId,
      ...success.value,
      clientAborted: false,
      sentUpstream: control.sentUpstream,
      usageUnknown: false,
    };
  } catch (error) {
    if (control.abandoned) {
      return {
        channelId,
        ...clientClosedStatus,
        clientAborted: true,
        sentUpstream: control.sentUpstream,
        ...noAnswer,
        usageUnknown: abandonedWithoutUsage(request, control, undefined),
      };
    }
    if (!client.streaming) throw error;
    // The response was taken over for a stream that then failed over and ran out of channels: answer by hand.
    if (!(error instanceof GatewayError)) services.logger.error({ err: error }, 'stream forwarding failed');
    const gatewayError =
      error instanceof GatewayError
        ? error
        : new GatewayError('server_error', 'The gateway failed to relay the stream.');
    client.endWithError(gatewayError);
    return {
      channelId,
      status: gatewayError.status,
      errorCode: gatewayError.code,
      clientAborted: false,
      sentUpstream: control.sentUpstream,
      usageUnknown: false,
      ...noAnswer,
    };
  } finally {
    control.dispose();
  }
}

/**
 * True when an abandoned stream must be charged its hold: the vendor got it and did not refuse it, and no usage came
 * (the drain was cut or refused a slot, the vendor cut or stalled, or its wire reports none).
 */
function abandonedWithoutUsage(
  request: DispatchRequest,
  control: ForwardingControl,
  usage: DispatchOutcome['usage'],
): boolean {
  return request.stream && control.sentUpstream && !control.refusedByVendor && usage === undefined;
}
