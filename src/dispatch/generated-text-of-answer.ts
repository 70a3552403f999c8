import type { CanonicalAnswer } from '../core/canonical/canonical-answer.js';

/**
 * The generated text of a whole canonical answer, for the tokenizer when it came without usage: text, reasoning, tool
 * names and arguments, the same parts a translated stream counts (relay-canonical-stream.ts).
 */
export function generatedTextOfAnswer(answer: CanonicalAnswer): string {
  const parts: string[] = [];
  for (const block of answer.blocks) {
    switch (block.type) {
      case 'text':
      case 'reasoning':
        parts.push(block.text);
        break;
      case 'tool-call':
        parts.push(block.name, block.arguments);
        break;
      default: {
        const unreachable: never = block;
        throw new Error(`Unhandled answer block ${String(unreachable)}`);
      }
    }
  }
  return parts.join('');
}
