/** Wire protocols a channel may speak; each has an adapter on the request path (OpenAI-wire ones with their quirk hooks). */
export const channelProtocols = ['openai', 'azure', 'anthropic', 'gemini', 'bedrock', 'vertex'] as const;

/** The wire protocol of one channel. */
export type ChannelProtocol = (typeof channelProtocols)[number];

const knownProtocols: ReadonlySet<string> = new Set(channelProtocols);

/** True when `value` names a protocol the gateway can send to. */
export function isChannelProtocol(value: string): value is ChannelProtocol {
  return knownProtocols.has(value);
}
