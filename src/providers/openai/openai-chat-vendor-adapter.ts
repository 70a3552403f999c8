import type { VendorAdapter } from '../vendor-adapter.js';
import { decodeOpenAiChatResponse, decodeOpenAiChatStream } from './decode-openai-chat-answer.js';
import { encodeOpenAiChatRequest } from './encode-openai-chat-request.js';
import { mapOpenAiUpstreamFailure } from './map-openai-upstream-failure.js';
import type { OpenAiWireQuirks } from './openai-wire-quirks.js';

/**
 * An OpenAI-wire channel (OpenAI, Azure, DeepSeek, ...) serving a canonical request through chat completions: the
 * vendor's quirk hooks give URL and auth; `knownSecrets` (the channel's key, host, base URL) are redacted from failures. Chat clients never come here: their bodies pass through (the fast path).
 */
export function createOpenAiChatVendorAdapter(
  quirks: OpenAiWireQuirks,
  knownSecrets: readonly string[] = [],
): VendorAdapter {
  return {
    protocol: quirks.protocol,
    encodeRequest: (request, call) => encodeOpenAiChatRequest(request, call, quirks),
    decodeResponse: decodeOpenAiChatResponse,
    decodeStream: decodeOpenAiChatStream,
    mapFailure: (status, bodyText, retryAfter) => mapOpenAiUpstreamFailure(status, bodyText, retryAfter, knownSecrets),
  };
}
