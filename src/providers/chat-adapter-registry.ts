import { anthropicChatAdapter } from './anthropic/anthropic-chat-adapter.js';
import { bedrockChatAdapter } from './bedrock/bedrock-chat-adapter.js';
import type { ChatAdapter } from './chat-adapter.js';
import { geminiChatAdapter } from './gemini/gemini-chat-adapter.js';

// One entry per translated protocol.
const registeredAdapters: ChatAdapter[] = [anthropicChatAdapter, geminiChatAdapter, bedrockChatAdapter];

const adapters = new Map<string, ChatAdapter>(registeredAdapters.map((adapter) => [adapter.protocol, adapter]));

/** The adapter for a translated protocol (`anthropic`, `gemini`, `bedrock`), if one is registered. */
export function findChatAdapter(protocol: string): ChatAdapter | undefined {
  return adapters.get(protocol);
}
