import type { CanonicalStreamFailure, CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { ClientStreamEncoder } from '../../core/canonical/client-answer-codec.js';
import { createAnswerBuilder } from '../../core/canonical/fold-stream-parts.js';
import { encodeReasoningBlock, encodeToolUseArtefactBlock } from './encode-message.js';
import { encodeMessagesUsage } from './encode-messages-usage.js';
import { encodeStopReason } from './encode-stop-reason.js';
import { formatMessagesEvent } from './format-messages-event.js';
import { messagesStreamErrorType } from './messages-error.js';
import type { MessagesEncodingContext } from './messages-encoding-context.js';
import { toMessagesToolUseId } from './messages-tool-use-id.js';
import type { MessagesAnswerBlock } from './messages-wire-types.js';

/**
 * Writes one streamed Message the way `messages.stream()` and Claude Code read it: `message_start` (with the input
 * usage known so far) and a `ping`, then per block `content_block_start` / `_delta` / `_stop` with dense indices in
 * start order, then `message_delta` with the stop reason and cumulative usage, and `message_stop`.
 *
 * `message_start` waits for the first part that shows content (or for the end), so that the usage a vendor reports
 * first (Anthropic's input tokens) is in it. A reasoning block starts on the wire at its first text, or at its end
 * when it has none, because only then is it known to be `thinking` or `redacted_thinking`.
 *
 * With a sealer, a tool call's vendor artefact goes out in a thinking block right before the `tool_use` (see
 * encodeToolUseArtefactBlock), but it is known only at the call's end. So a call is held while it has come whole so
 * far (at most one arguments piece: Gemini's calls, the only ones with artefacts, always do) and written whole at its
 * end after that block; a call whose input comes in pieces is streamed from its second piece on, and an artefact that
 * still arrives at its end goes in a thinking block right after it.
 */
export function createMessagesStreamEncoder(context: MessagesEncodingContext): ClientStreamEncoder {
  const builder = createAnswerBuilder();
  /** canonical block index -> wire index, for blocks started on the wire */
  const wireIndexOf = new Map<number, number>();
  /** canonical indices of blocks started on the wire and not yet stopped, in wire order */
  const openBlocks = new Set<number>();
  /** canonical indices of tool calls held until their end or second input piece, with the pieces seen so far */
  const heldToolCalls = new Map<number, number>();
  /** wire indices taken by thinking blocks that carry a tool call's artefact (they have no canonical block) */
  let carrierCount = 0;
  let started = false;
  let finished = false;

  function messageStart(): string[] {
    if (started) return [];
    started = true;
    const message = {
      id: context.messageId,
      type: 'message',
      role: 'assistant',
      model: context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: encodeMessagesUsage(builder.answer().usage),
    };
    return [formatMessagesEvent({ type: 'message_start', message }), formatMessagesEvent({ type: 'ping' })];
  }

  function startBlock(blockIndex: number, contentBlock: MessagesAnswerBlock): string[] {
    const index = wireIndexOf.size + carrierCount;
    wireIndexOf.set(blockIndex, index);
    openBlocks.add(blockIndex);
    return [
      ...messageStart(),
      formatMessagesEvent({ type: 'content_block_start', index, content_block: contentBlock }),
    ];
  }

  function delta(blockIndex: number, blockDelta: Record<string, unknown>): string {
    return formatMessagesEvent({ type: 'content_block_delta', index: wireIndexOf.get(blockIndex), delta: blockDelta });
  }

  function stopBlock(blockIndex: number): string[] {
    if (!openBlocks.delete(blockIndex)) return [];
    return [formatMessagesEvent({ type: 'content_block_stop', index: wireIndexOf.get(blockIndex) })];
  }

  function sealed(blockIndex: number): string {
    const block = builder.block(blockIndex);
    const artefact = block?.type === 'reasoning' ? block.artefact : undefined;
    return artefact && context.sealArtefact ? context.sealArtefact({ artefact }) : '';
  }

  /** A reasoning block that ends before it started on the wire: all of it at once, or nothing when it is empty. */
  function wholeReasoningBlock(blockIndex: number): string[] {
    const block = builder.block(blockIndex);
    if (block?.type !== 'reasoning') return [];
    const encoded = encodeReasoningBlock(block.text, block.artefact, context);
    if (!encoded) return [];
    if (encoded.type === 'thinking') {
      const frames = startBlock(blockIndex, { type: 'thinking', thinking: '', signature: '' });
      if (encoded.signature) frames.push(delta(blockIndex, { type: 'signature_delta', signature: encoded.signature }));
      return [...frames, ...stopBlock(blockIndex)];
    }
    return [...startBlock(blockIndex, encoded), ...stopBlock(blockIndex)];
  }

  /** The thinking block carrying a tool call's sealed artefact, whole; none when it has none. */
  function artefactBlock(blockIndex: number): string[] {
    const block = builder.block(blockIndex);
    const carrier = block?.type === 'tool-call' ? encodeToolUseArtefactBlock(block, context) : null;
    if (carrier?.type !== 'thinking') return [];
    const index = wireIndexOf.size + carrierCount++;
    return [
      ...messageStart(),
      formatMessagesEvent({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      formatMessagesEvent({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: carrier.signature },
      }),
      formatMessagesEvent({ type: 'content_block_stop', index }),
    ];
  }

  /** A held tool call written as far as it has come (stopped when it ended), after its artefact block when it has one. */
  function releaseToolCall(blockIndex: number): string[] {
    heldToolCalls.delete(blockIndex);
    const block = builder.block(blockIndex);
    if (block?.type !== 'tool-call') return [];
    const frames = [
      ...artefactBlock(blockIndex),
      ...startBlock(blockIndex, {
        type: 'tool_use',
        id: toMessagesToolUseId(block.callId),
        name: block.name,
        input: {},
      }),
    ];
    if (block.arguments) frames.push(delta(blockIndex, { type: 'input_json_delta', partial_json: block.arguments }));
    return block.ended ? [...frames, ...stopBlock(blockIndex)] : frames;
  }

  function framesOf(part: CanonicalStreamPart): string[] {
    switch (part.type) {
      case 'response-start':
      case 'usage':
      case 'finish':
      case 'error':
        return [];
      case 'text-start':
        return startBlock(part.blockIndex, { type: 'text', text: '' });
      case 'text-delta':
        return part.text ? [delta(part.blockIndex, { type: 'text_delta', text: part.text })] : [];
      case 'text-end':
        return stopBlock(part.blockIndex);
      case 'reasoning-start':
        return [];
      case 'reasoning-delta': {
        if (!part.text) return [];
        const frames = wireIndexOf.has(part.blockIndex)
          ? []
          : startBlock(part.blockIndex, { type: 'thinking', thinking: '', signature: '' });
        return [...frames, delta(part.blockIndex, { type: 'thinking_delta', thinking: part.text })];
      }
      case 'reasoning-end': {
        if (!wireIndexOf.has(part.blockIndex)) return wholeReasoningBlock(part.blockIndex);
        const signature = sealed(part.blockIndex);
        const frames = signature ? [delta(part.blockIndex, { type: 'signature_delta', signature })] : [];
        return [...frames, ...stopBlock(part.blockIndex)];
      }
      case 'tool-call-start':
        if (context.sealArtefact) {
          heldToolCalls.set(part.blockIndex, 0);
          return [];
        }
        return startBlock(part.blockIndex, {
          type: 'tool_use',
          id: toMessagesToolUseId(part.callId),
          name: part.name,
          input: {},
        });
      case 'tool-call-delta': {
        if (!part.argumentsDelta) return [];
        const heldPieces = heldToolCalls.get(part.blockIndex);
        if (heldPieces === undefined)
          return [delta(part.blockIndex, { type: 'input_json_delta', partial_json: part.argumentsDelta })];
        heldToolCalls.set(part.blockIndex, heldPieces + 1);
        return heldPieces + 1 < 2 ? [] : releaseToolCall(part.blockIndex);
      }
      case 'tool-call-end':
        if (heldToolCalls.has(part.blockIndex)) return releaseToolCall(part.blockIndex);
        return [...stopBlock(part.blockIndex), ...artefactBlock(part.blockIndex)];
      default: {
        const unreachable: never = part;
        throw new Error(`Unhandled part ${JSON.stringify(unreachable)}`);
      }
    }
  }

  return {
    start() {
      return [];
    },
    push(part) {
      if (finished) return [];
      builder.add(part);
      return framesOf(part);
    },
    end() {
      if (finished) return [];
      finished = true;
      const answer = builder.answer();
      const frames = messageStart();
      for (const blockIndex of [...heldToolCalls.keys()]) frames.push(...releaseToolCall(blockIndex));
      for (const blockIndex of [...openBlocks]) frames.push(...stopBlock(blockIndex));
      frames.push(
        formatMessagesEvent({
          type: 'message_delta',
          delta: encodeStopReason(answer.finish),
          usage: encodeMessagesUsage(answer.usage),
        }),
      );
      frames.push(formatMessagesEvent({ type: 'message_stop' }));
      return frames;
    },
    fail(failure: CanonicalStreamFailure) {
      if (finished) return [];
      finished = true;
      return [
        formatMessagesEvent({
          type: 'error',
          error: { type: messagesStreamErrorType(failure), message: failure.message },
        }),
      ];
    },
  };
}
