import { z } from 'zod';

/** The assistant message a thread holds of one answer: what the client would send back as that turn. */
export interface MessagesThreadAnswer {
  role: 'assistant';
  content: Array<Record<string, unknown>>;
}

/** Rebuilds the assistant message of a streamed Message from its events (Anthropic's or the gateway's own). */
export interface MessagesStreamAccumulator {
  /** one event's JSON data */
  push(event: Readonly<Record<string, unknown>>): void;
  /** the whole message once `message_stop` was seen; undefined before (or after an `error` event) */
  message(): MessagesThreadAnswer | undefined;
}

/** A fresh accumulator for one streamed Message. */
export function createMessagesStreamAccumulator(): MessagesStreamAccumulator {
  const blocks: Array<Record<string, unknown>> = [];
  const partialInputs = new Map<number, string>();
  let stopped = false;
  let failed = false;
  return {
    push(event) {
      switch (event.type) {
        case 'content_block_start':
          if (typeof event.index === 'number' && isObject(event.content_block))
            blocks[event.index] = { ...event.content_block };
          return;
        case 'content_block_delta':
          if (typeof event.index === 'number' && isObject(event.delta)) applyDelta(event.index, event.delta);
          return;
        case 'content_block_stop':
          if (typeof event.index === 'number') finishBlock(event.index);
          return;
        case 'message_stop':
          stopped = true;
          return;
        case 'error':
          failed = true;
          return;
        default:
          return;
      }
    },
    message() {
      if (!stopped || failed) return undefined;
      return { role: 'assistant', content: blocks.filter((block) => block !== undefined) };
    },
  };

  function applyDelta(index: number, delta: Record<string, unknown>): void {
    const block = blocks[index];
    if (!block) return;
    switch (delta.type) {
      case 'text_delta':
        block.text = `${stringOf(block.text)}${stringOf(delta.text)}`;
        return;
      case 'thinking_delta':
        block.thinking = `${stringOf(block.thinking)}${stringOf(delta.thinking)}`;
        return;
      case 'signature_delta':
        block.signature = `${stringOf(block.signature)}${stringOf(delta.signature)}`;
        return;
      case 'input_json_delta':
        partialInputs.set(index, `${partialInputs.get(index) ?? ''}${stringOf(delta.partial_json)}`);
        return;
      case 'citations_delta':
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return;
      default:
        return;
    }
  }

  function finishBlock(index: number): void {
    const block = blocks[index];
    const partial = partialInputs.get(index);
    if (!block || partial === undefined || partial.trim() === '') return;
    try {
      const input: unknown = JSON.parse(partial);
      if (isObject(input)) block.input = input;
    } catch {
      // Input cut off mid-JSON: the block keeps the input it started with.
    }
  }
}

/** The JSON data of complete Messages SSE frames (`event: ...\ndata: {...}\n\n`), in order; unreadable ones skipped. */
export function readMessagesFrames(frames: readonly string[]): Array<Record<string, unknown>> {
  return frames.flatMap((frame) => {
    const data = frame
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice('data:'.length).trimStart())
      .join('\n');
    if (data === '') return [];
    try {
      const parsed: unknown = JSON.parse(data);
      return isObject(parsed) ? [parsed] : [];
    } catch {
      return [];
    }
  });
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const messageContentSchema = z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) });

/** The assistant message of a whole Message JSON body (a non-streamed answer); undefined when it is not one. */
export function readMessagesAnswer(bodyText: string): MessagesThreadAnswer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const message = messageContentSchema.safeParse(parsed);
  return message.success ? { role: 'assistant', content: message.data.content } : undefined;
}
