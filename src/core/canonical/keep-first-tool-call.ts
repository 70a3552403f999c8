import { assertNever } from '../assert-never.js';
import type { CanonicalStreamPart } from './canonical-stream-part.js';

/**
 * A filter that lets one answer's first tool call through and drops every later one (its start, deltas and end): how
 * the gateway honours "at most one tool call" (chat/Responses `parallel_tool_calls: false`, Messages
 * `tool_choice.disable_parallel_tool_use: true`) for a vendor without such a switch, streamed or not. The blocks that
 * remain are numbered again from 0 in start order, as every codec expects; the finish stays the vendor's (a tool-call
 * finish for one call is the same as for two). Returns undefined for a part that is dropped.
 */
export function createFirstToolCallFilter(): (part: CanonicalStreamPart) => CanonicalStreamPart | undefined {
  let toolCallKept = false;
  let nextBlockIndex = 0;
  const keptBlocks = new Map<number, number>();

  const startBlock = (vendorIndex: number): number => {
    const blockIndex = nextBlockIndex++;
    keptBlocks.set(vendorIndex, blockIndex);
    return blockIndex;
  };

  return (part) => {
    switch (part.type) {
      case 'tool-call-start':
        if (toolCallKept) return undefined;
        toolCallKept = true;
        return { ...part, blockIndex: startBlock(part.blockIndex) };
      case 'text-start':
      case 'reasoning-start':
        return { ...part, blockIndex: startBlock(part.blockIndex) };
      case 'text-delta':
      case 'text-end':
      case 'reasoning-delta':
      case 'reasoning-end':
      case 'tool-call-delta':
      case 'tool-call-end': {
        const blockIndex = keptBlocks.get(part.blockIndex);
        return blockIndex === undefined ? undefined : { ...part, blockIndex };
      }
      case 'response-start':
      case 'finish':
      case 'usage':
      case 'error':
        return part;
      default:
        return assertNever(part, 'stream part');
    }
  };
}

/** A whole answer's parts with only its first tool call (see createFirstToolCallFilter). */
export function keepFirstToolCall(parts: readonly CanonicalStreamPart[]): CanonicalStreamPart[] {
  const filter = createFirstToolCallFilter();
  const kept: CanonicalStreamPart[] = [];
  for (const part of parts) {
    const passed = filter(part);
    if (passed) kept.push(passed);
  }
  return kept;
}

/** A stream's parts with only its first tool call, as they arrive (see createFirstToolCallFilter). */
export async function* keepFirstToolCallOfStream(
  parts: AsyncIterable<CanonicalStreamPart>,
): AsyncGenerator<CanonicalStreamPart> {
  const filter = createFirstToolCallFilter();
  for await (const part of parts) {
    const passed = filter(part);
    if (passed) yield passed;
  }
}
