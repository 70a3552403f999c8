import type { CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';

/**
 * The parts of an answer the gateway asked for as a forced call of its own tool `toolName` (JSON mode on a vendor
 * that has only tools for it), as the text answer the client asked for: that call's block becomes a text block whose
 * text is the call's JSON arguments, and the finish reason `tool-calls` becomes `stop`. Other parts are unchanged.
 */
export function answerToolAsText(
  part: CanonicalStreamPart,
  toolName: string,
  answerBlocks: Set<number>,
): CanonicalStreamPart {
  switch (part.type) {
    case 'tool-call-start':
      if (part.name !== toolName) return part;
      answerBlocks.add(part.blockIndex);
      return { type: 'text-start', blockIndex: part.blockIndex };
    case 'tool-call-delta':
      return answerBlocks.has(part.blockIndex)
        ? { type: 'text-delta', blockIndex: part.blockIndex, text: part.argumentsDelta }
        : part;
    case 'tool-call-end':
      return answerBlocks.has(part.blockIndex) ? { type: 'text-end', blockIndex: part.blockIndex } : part;
    case 'finish':
      return part.finish.reason === 'tool-calls' && answerBlocks.size > 0
        ? { type: 'finish', finish: { ...part.finish, reason: 'stop' } }
        : part;
    default:
      return part;
  }
}

/** answerToolAsText over a whole answer. */
export function answerToolAsTextParts(parts: readonly CanonicalStreamPart[], toolName: string): CanonicalStreamPart[] {
  const answerBlocks = new Set<number>();
  return parts.map((part) => answerToolAsText(part, toolName, answerBlocks));
}

/** answerToolAsText over a stream of parts. */
export async function* answerToolAsTextStream(
  parts: AsyncIterable<CanonicalStreamPart>,
  toolName: string,
): AsyncGenerator<CanonicalStreamPart> {
  const answerBlocks = new Set<number>();
  for await (const part of parts) yield answerToolAsText(part, toolName, answerBlocks);
}
