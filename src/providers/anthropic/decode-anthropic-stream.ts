import type { Readable } from 'node:stream';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import type { VendorCall } from '../chat-adapter.js';
import { readServerSentEvents } from '../translated-stream/read-server-sent-events.js';
import type { AnthropicUsage } from './anthropic-wire-types.js';
import { mapAnthropicStreamError } from './map-anthropic-failure.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mergeAnthropicUsage, parseAnthropicUsage } from './parse-anthropic-usage.js';

/** One SSE event's JSON, as far as the decoder reads it. */
interface AnthropicStreamEvent {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string; thinking?: string };
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
}

/** What the decoder remembers between events. */
interface AnthropicStreamState {
  /** content block index → tool call index, for tool_use blocks */
  toolCallIndexByBlock: Map<number, number>;
  nextToolCallIndex: number;
  usage: AnthropicUsage;
}

/**
 * Decodes Anthropic's Messages SSE stream into canonical parts: message_start → start;
 * content_block_start (tool_use) → tool-call-start; text/input_json/thinking deltas → text/tool-input/
 * reasoning deltas; message_delta → finish and usage (its counts are cumulative and merged over
 * message_start's); `error` → an error part; message_stop ends. `ping` and unknown events are ignored.
 */
export async function* decodeAnthropicStream(body: Readable, _call: VendorCall): AsyncGenerator<ChatStreamPart> {
  const state: AnthropicStreamState = { toolCallIndexByBlock: new Map(), nextToolCallIndex: 0, usage: {} };
  for await (const event of readServerSentEvents(body)) {
    const data = parseEvent(event.data);
    const type = data?.type ?? event.event;
    if (type === 'message_stop') return;
    if (type === 'error') {
      yield mapAnthropicStreamError(data);
      return;
    }
    if (data) yield* partsOfEvent(type, data, state);
  }
}

function* partsOfEvent(type: string | undefined, event: AnthropicStreamEvent, state: AnthropicStreamState): Generator<ChatStreamPart> {
  if (type === 'message_start') {
    state.usage = mergeAnthropicUsage(state.usage, event.message?.usage);
    yield { type: 'start', responseId: event.message?.id, model: event.message?.model };
  } else if (type === 'content_block_start') {
    const block = event.content_block;
    if (block?.type === 'tool_use' && typeof event.index === 'number') {
      const toolCallIndex = state.nextToolCallIndex++;
      state.toolCallIndexByBlock.set(event.index, toolCallIndex);
      yield { type: 'tool-call-start', toolCallIndex, id: block.id ?? '', name: block.name ?? '' };
    } else if (block?.type === 'text' && block.text) {
      yield { type: 'text-delta', text: block.text };
    }
  } else if (type === 'content_block_delta') {
    yield* partsOfDelta(event, state);
  } else if (type === 'message_delta') {
    state.usage = mergeAnthropicUsage(state.usage, event.usage);
    const rawReason = event.delta?.stop_reason ?? null;
    yield { type: 'usage', usage: parseAnthropicUsage(state.usage) };
    yield { type: 'finish', finishReason: mapAnthropicStopReason(rawReason), rawReason };
  }
}

function* partsOfDelta(event: AnthropicStreamEvent, state: AnthropicStreamState): Generator<ChatStreamPart> {
  const delta = event.delta;
  if (delta?.type === 'text_delta' && delta.text) yield { type: 'text-delta', text: delta.text };
  else if (delta?.type === 'thinking_delta' && delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking };
  else if (delta?.type === 'input_json_delta' && delta.partial_json && typeof event.index === 'number') {
    const toolCallIndex = state.toolCallIndexByBlock.get(event.index);
    if (toolCallIndex !== undefined) yield { type: 'tool-input-delta', toolCallIndex, argumentsDelta: delta.partial_json };
  }
}

function parseEvent(data: string): AnthropicStreamEvent | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' ? (parsed as AnthropicStreamEvent) : undefined;
  } catch {
    return undefined;
  }
}
