import type { CanonicalStreamPart } from '../../src/core/canonical/canonical-stream-part.js';
import { createChatStreamEncoder } from '../../src/protocols/openai-chat/chat-stream-encoder.js';

/** What a chat client would receive for these parts: the `data:` payloads of the chat codec's frames, JSON-parsed, `[DONE]` left out. */
export function encodeChatChunks(
  parts: readonly CanonicalStreamPart[],
  options: { model: string; clientWantsUsage?: boolean },
): unknown[] {
  const encoder = createChatStreamEncoder(
    { id: 'chatcmpl-test', model: options.model, created: 1_700_000_000 },
    options.clientWantsUsage ?? true,
  );
  const frames = [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
  return frames
    .map((frame) => frame.replace(/^data: /, '').trimEnd())
    .filter((payload) => payload !== '[DONE]')
    .map((payload) => JSON.parse(payload) as unknown);
}
