import type { AnswerBlock, CanonicalAnswer } from './canonical-answer.js';
import type { CanonicalStreamPart } from './canonical-stream-part.js';

/** Folds stream parts one at a time into an answer; streaming encoders keep one to build their terminal event. */
export interface AnswerBuilder {
  /** applies one part; throws on a part that breaks the block rules (a programming error in an adapter) */
  add(part: CanonicalStreamPart): void;
  /** the answer so far (a snapshot: later parts do not change it) */
  answer(): CanonicalAnswer;
  /** a snapshot of one block, or undefined when it has not started */
  block(blockIndex: number): AnswerBlock | undefined;
}

/** A fresh builder with no blocks. */
export function createAnswerBuilder(): AnswerBuilder {
  const blocks: AnswerBlock[] = [];
  let finish: CanonicalAnswer['finish'] = null;
  let usage: CanonicalAnswer['usage'] = null;
  let failure: CanonicalAnswer['failure'] = null;

  function startBlock(blockIndex: number, block: AnswerBlock): void {
    if (blockIndex !== blocks.length)
      throw new Error(`Block ${blockIndex} started out of order (expected ${blocks.length})`);
    blocks.push(block);
  }

  function openBlock<Type extends AnswerBlock['type']>(
    blockIndex: number,
    type: Type,
  ): Extract<AnswerBlock, { type: Type }> {
    const block = blocks[blockIndex];
    if (!block || block.type !== type) throw new Error(`No ${type} block ${blockIndex} is open`);
    if (block.ended) throw new Error(`Block ${blockIndex} has already ended`);
    return block as Extract<AnswerBlock, { type: Type }>;
  }

  return {
    add(part) {
      if (failure) return;
      switch (part.type) {
        case 'response-start':
          return;
        case 'text-start':
          return startBlock(part.blockIndex, { type: 'text', text: '', ended: false });
        case 'text-delta':
          openBlock(part.blockIndex, 'text').text += part.text;
          return;
        case 'text-end':
          openBlock(part.blockIndex, 'text').ended = true;
          return;
        case 'reasoning-start':
          return startBlock(part.blockIndex, { type: 'reasoning', text: '', ended: false });
        case 'reasoning-delta':
          openBlock(part.blockIndex, 'reasoning').text += part.text;
          return;
        case 'reasoning-end': {
          const block = openBlock(part.blockIndex, 'reasoning');
          if (part.artefact) block.artefact = part.artefact;
          block.ended = true;
          return;
        }
        case 'tool-call-start':
          return startBlock(part.blockIndex, {
            type: 'tool-call',
            callId: part.callId,
            name: part.name,
            arguments: '',
            ended: false,
          });
        case 'tool-call-delta':
          openBlock(part.blockIndex, 'tool-call').arguments += part.argumentsDelta;
          return;
        case 'tool-call-end': {
          const block = openBlock(part.blockIndex, 'tool-call');
          if (part.artefact) block.artefact = part.artefact;
          block.ended = true;
          return;
        }
        case 'finish':
          finish = part.finish;
          return;
        case 'usage':
          usage = part.usage;
          return;
        case 'error':
          failure = part.failure;
          return;
        default: {
          const unreachable: never = part;
          throw new Error(`Unhandled stream part ${JSON.stringify(unreachable)}`);
        }
      }
    },
    answer() {
      return { blocks: blocks.map((block) => ({ ...block })), finish, usage, failure };
    },
    block(blockIndex) {
      const block = blocks[blockIndex];
      return block && { ...block };
    },
  };
}

/** The whole answer that a sequence of stream parts describes (a non-streamed reply is built this way). */
export function foldStreamParts(parts: Iterable<CanonicalStreamPart>): CanonicalAnswer {
  const builder = createAnswerBuilder();
  for (const part of parts) builder.add(part);
  return builder.answer();
}
