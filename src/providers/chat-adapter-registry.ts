import type { ChatAdapter } from './chat-adapter.js';

const adapters = new Map<string, ChatAdapter>();

/** The adapter for a translated protocol (`anthropic`, `gemini`, `bedrock`), if one is registered. */
export function findChatAdapter(protocol: string): ChatAdapter | undefined {
  return adapters.get(protocol);
}
