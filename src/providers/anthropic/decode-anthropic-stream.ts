import type { Readable } from 'node:stream';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import { readServerSentEvents } from '../read-server-sent-events.js';
import type { VendorCall } from '../vendor-adapter.js';
import type { AnthropicUsage } from './anthropic-wire-types.js';
import { anthropicArtefactProducer } from './convert-anthropic-messages.js';
import { mapAnthropicStreamError } from './map-anthropic-failure.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mergeAnthropicUsage, parseAnthropicUsage } from './parse-anthropic-usage.js';

/** One SSE event's JSON, as far as the decoder reads it. */
interface AnthropicStreamEvent {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string; thinking?: string; data?: string };
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: string | null;
    stop_sequence?: string | null;
  };
  usage?: AnthropicUsage;
}

/** What the decoder remembers between events. */
interface AnthropicStreamState {
  sequencer: StreamBlockSequencer;
  /** Anthropic content block index → the artefact its stop carries (thinking signature, redacted data) */
  artefactByBlock: Map<number, VendorArtefact>;
  usage: AnthropicUsage;
}

/**
 * Decodes Anthropic's Messages SSE stream into canonical parts: message_start → response-start; each content block
 * (text, thinking, redacted_thinking, tool_use) → its start, deltas and end (a thinking signature or redacted data as
 * the reasoning's artefact); message_delta → usage (its counts are cumulative and merged over message_start's) and
 * finish; `error` → an error part; message_stop ends. `ping` and unknown events are ignored; an event whose data is
 * not a JSON object → an error part that ends the parts.
 */
export async function* decodeAnthropicStream(body: Readable, _call: VendorCall): AsyncGenerator<CanonicalStreamPart> {
  const state: AnthropicStreamState = { sequencer: new StreamBlockSequencer(), artefactByBlock: new Map(), usage: {} };
  for await (const event of readServerSentEvents(body)) {
    const data = parseEvent(event.data);
    // Every Anthropic event carries a JSON object: anything else (an HTML page, cut-off JSON) ends the answer.
    if (!data && event.data.trim() !== '') {
      yield unreadableEventPart;
      return;
    }
    const type = data?.type ?? event.event;
    if (type === 'message_stop') return;
    if (type === 'error') {
      yield mapAnthropicStreamError(data);
      return;
    }
    if (data) yield* partsOfEvent(type, data, state);
  }
}

/** The error part of an event the decoder cannot read. */
const unreadableEventPart: CanonicalStreamPart = {
  type: 'error',
  failure: {
    code: 'server_error',
    message: 'The upstream vendor sent a stream event the gateway could not read; the answer is incomplete.',
  },
};

function partsOfEvent(
  type: string | undefined,
  event: AnthropicStreamEvent,
  state: AnthropicStreamState,
): CanonicalStreamPart[] {
  const { sequencer } = state;
  const index = event.index ?? -1;
  switch (type) {
    case 'message_start':
      state.usage = mergeAnthropicUsage(state.usage, event.message?.usage);
      return [{ type: 'response-start', vendorResponseId: event.message?.id, vendorModel: event.message?.model }];
    case 'content_block_start':
      return partsOfBlockStart(index, event.content_block, state);
    case 'content_block_delta':
      return partsOfDelta(index, event.delta, state);
    case 'content_block_stop':
      return sequencer.hasToolCall(index)
        ? sequencer.endToolCall(index)
        : sequencer.endFlowing(state.artefactByBlock.get(index));
    case 'message_delta': {
      state.usage = mergeAnthropicUsage(state.usage, event.usage);
      const rawReason = event.delta?.stop_reason ?? null;
      const stopSequence = event.delta?.stop_sequence;
      return [
        ...sequencer.endAll(),
        { type: 'usage', usage: parseAnthropicUsage(state.usage) },
        {
          type: 'finish',
          finish: { reason: mapAnthropicStopReason(rawReason), rawReason, ...(stopSequence ? { stopSequence } : {}) },
        },
      ];
    }
    default:
      return [];
  }
}

function partsOfBlockStart(
  index: number,
  block: AnthropicStreamEvent['content_block'],
  state: AnthropicStreamState,
): CanonicalStreamPart[] {
  const { sequencer } = state;
  switch (block?.type) {
    case 'text':
      return [...sequencer.startFlowing('text'), ...sequencer.text(block.text ?? '')];
    case 'thinking':
      return [...sequencer.startFlowing('reasoning'), ...sequencer.reasoning(block.thinking ?? '')];
    case 'redacted_thinking':
      if (block.data)
        state.artefactByBlock.set(index, { producer: anthropicArtefactProducer, redactedData: block.data });
      return sequencer.startFlowing('reasoning');
    case 'tool_use':
      return sequencer.startToolCall(index, block.id ?? '', block.name ?? '');
    default:
      return [];
  }
}

function partsOfDelta(
  index: number,
  delta: AnthropicStreamEvent['delta'],
  state: AnthropicStreamState,
): CanonicalStreamPart[] {
  const { sequencer } = state;
  switch (delta?.type) {
    case 'text_delta':
      return delta.text ? sequencer.text(delta.text) : [];
    case 'thinking_delta':
      return delta.thinking ? sequencer.reasoning(delta.thinking) : [];
    case 'signature_delta':
      if (delta.signature)
        state.artefactByBlock.set(index, { producer: anthropicArtefactProducer, signature: delta.signature });
      return [];
    case 'input_json_delta':
      return sequencer.toolCallArguments(index, delta.partial_json ?? '');
    default:
      return [];
  }
}

function parseEvent(data: string): AnthropicStreamEvent | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as AnthropicStreamEvent)
      : undefined;
  } catch {
    return undefined;
  }
}
