import { GatewayError } from '../core/gateway-error.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import type { RoutableChannel } from '../routing/routing-table.js';

/** The channel that answered and what it answered. */
export interface ChannelSuccess<Value> {
  channel: RoutableChannel;
  value: Value;
  /** how many channels were tried, this one included */
  attempts: number;
}

/** What an attempt returns for a channel it did not try (its breaker let nothing through): not counted, the last error kept. */
export const channelSkipped = { kind: 'skipped' } as const;

/**
 * The failover order rule: tries channels one after another until one succeeds or fails for a reason another channel would share.
 * When all fail, the last channel's error is thrown, so a client sees the most recent upstream state.
 */
export async function tryChannelsInOrder<Value>(
  channels: readonly RoutableChannel[],
  attempt: (channel: RoutableChannel) => Promise<UpstreamAttemptResult<Value> | typeof channelSkipped>,
): Promise<ChannelSuccess<Value>> {
  if (channels.length === 0) {
    throw new GatewayError(
      'service_unavailable',
      'No upstream channel is available for this model right now; retry later.',
    );
  }
  let lastError: GatewayError | undefined;
  let attempts = 0;
  for (const channel of channels) {
    const result = await attempt(channel);
    if (result.kind === 'skipped') continue;
    attempts++;
    if (result.kind === 'success') return { channel, value: result.value, attempts };
    if (result.kind === 'final-failure') throw result.error;
    lastError = result.error;
  }
  throw (
    lastError ?? new GatewayError('service_unavailable', 'No upstream channel could serve the request; retry later.')
  );
}
