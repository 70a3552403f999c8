import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-wire-types.js';

/** Anthropic's prompt-cache mark (5 minutes, its default TTL). */
const ephemeral = { type: 'ephemeral' } as const;

/** A content block that may carry a prompt-cache breakpoint. */
export type MarkableAnthropicBlock = AnthropicContentBlock & { cache_control?: typeof ephemeral };

/** A message whose blocks may carry a prompt-cache breakpoint. */
export interface MarkableAnthropicMessage {
  role: AnthropicMessage['role'];
  content: MarkableAnthropicBlock[];
}

/**
 * The gateway's own prompt-cache breakpoints for a request translated to Anthropic (whose clients, on chat and
 * Responses, cannot mark any): the last system block and the last markable block of the last message, as Anthropic
 * suggests for multi-turn conversations. Each turn then writes its whole prompt and the next turn, which repeats it,
 * reads it back (Anthropic looks for an earlier entry up to 20 blocks before a breakpoint). Thinking blocks cannot be
 * marked; a prompt under the model's minimum cacheable length is neither written nor read (and costs nothing extra).
 * Returns new arrays; the blocks given are not changed.
 */
export function placeAnthropicCacheBreakpoints(
  system: Array<{ type: 'text'; text: string }> | undefined,
  messages: AnthropicMessage[],
): {
  system: Array<{ type: 'text'; text: string; cache_control?: typeof ephemeral }> | undefined;
  messages: MarkableAnthropicMessage[];
} {
  const markedSystem = system?.map((block, index) =>
    index === system.length - 1 ? { ...block, cache_control: ephemeral } : block,
  );
  const last = messages.at(-1);
  if (!last) return { system: markedSystem, messages };
  const markIndex = last.content.findLastIndex(
    (block) => block.type !== 'thinking' && block.type !== 'redacted_thinking',
  );
  if (markIndex === -1) return { system: markedSystem, messages };
  const content = last.content.map((block, index): MarkableAnthropicBlock =>
    index === markIndex ? { ...block, cache_control: ephemeral } : block,
  );
  return { system: markedSystem, messages: [...messages.slice(0, -1), { ...last, content }] };
}
