import type { RoutableChannel } from '../../routing/routing-table.js';

/**
 * True when the channel is an OpenAI-protocol channel whose vendor serves the Responses API (`POST /responses`):
 * its `responsesApi` setting is `"true"`, or it was made from the `openai` preset and does not set it to `"false"`.
 */
export function channelHasResponsesApi(channel: RoutableChannel): boolean {
  if (channel.protocol !== 'openai') return false;
  const setting = channel.settings.responsesApi;
  if (setting !== undefined) return setting === 'true';
  return channel.preset === 'openai';
}
