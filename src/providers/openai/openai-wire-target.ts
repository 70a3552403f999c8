import type { VendorChannel } from '../chat-adapter.js';
import { createAzureOpenAiTarget } from '../azure/azure-openai-target.js';

/** Where an OpenAI-wire request goes and how it authenticates; OpenAI itself and Azure OpenAI differ only here. */
export interface OpenAiWireTarget {
  /** the full URL for a path such as `/chat/completions` */
  urlFor(path: string): string;
  /** authentication headers */
  headers: Record<string, string>;
}

/** Protocols that speak OpenAI's wire format (bodies and streams pass through unchanged). */
export const openAiWireProtocols = new Set(['openai', 'azure']);

/** The target for an OpenAI-wire channel and the model name it expects. */
export function createOpenAiWireTarget(protocol: string, channel: VendorChannel, upstreamModelId: string): OpenAiWireTarget {
  if (protocol === 'azure') return createAzureOpenAiTarget(channel, upstreamModelId);
  return { urlFor: (path) => channel.baseUrl + path, headers: { authorization: `Bearer ${channel.secret}` } };
}
