import type { VendorChannel } from '../vendor-adapter.js';

/**
 * The typed hooks by which one OpenAI-wire vendor differs from OpenAI itself: where a request goes and how it
 * authenticates. Bodies and streams pass through unchanged for every one of them.
 */
export interface OpenAiWireQuirks {
  /** the channel `protocol` value these quirks serve */
  protocol: string;
  /** the full URL for a path such as `/chat/completions` and the model name the channel expects */
  urlFor(channel: VendorChannel, upstreamModelId: string, path: string): string;
  /** authentication headers */
  authHeaders(channel: VendorChannel): Record<string, string>;
}

/** OpenAI and every vendor that copies its API (DeepSeek, OpenRouter, vLLM, ...): base URL + path, bearer key. */
export const openAiQuirks: OpenAiWireQuirks = {
  protocol: 'openai',
  urlFor: (channel, _upstreamModelId, path) => channel.baseUrl + path,
  authHeaders: (channel) => ({ authorization: `Bearer ${channel.secret}` }),
};
