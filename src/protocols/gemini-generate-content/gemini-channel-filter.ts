import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RoutableChannel } from '../../routing/routing-table.js';

/** Whether a channel speaks Gemini's API, and so honours the members only Gemini has. */
function isGeminiChannel(channel: RoutableChannel): boolean {
  return channel.protocol === 'gemini';
}

/**
 * Which of the model's channels may serve a parsed generateContent request: only Gemini channels when it carries
 * members only Gemini honours (`safetySettings`, in its Gemini extras), which other vendors would silently go without;
 * undefined (every channel) otherwise. A 400 naming the member when none of the model's channels is a Gemini one.
 */
export function geminiChannelFilter(
  request: CanonicalRequest,
  channels: readonly RoutableChannel[],
): ((channel: RoutableChannel) => boolean) | undefined {
  const extras = request.vendorExtras?.gemini;
  if (!extras) return undefined;
  const [member] = Object.keys(extras);
  if (member === undefined) return undefined;
  if (!channels.some(isGeminiChannel))
    throw new GatewayError(
      'invalid_request_error',
      `'${member}' is applied by Gemini only, and no Gemini channel serves model '${request.model}': remove it to use this model.`,
      { param: member },
    );
  return isGeminiChannel;
}
