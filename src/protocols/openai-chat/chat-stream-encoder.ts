import type { ClientStreamEncoder } from '../../core/canonical/client-answer-codec.js';
import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
import { encodeChatToolCallId } from './chat-tool-call-id.js';
import type { ChatAnswerIdentity } from './encode-chat-completion.js';
import { encodeChatFinishReason } from './encode-chat-finish-reason.js';
import { encodeChatUsage } from './encode-chat-usage.js';

/** The frame that ends a complete chat stream. */
export const chatDoneFrame = 'data: [DONE]\n\n';

/** One `data:` frame. */
function dataFrame(payload: string): string {
  return `data: ${payload}\n\n`;
}

/**
 * Writes canonical parts as OpenAI `chat.completion.chunk` frames: the role with the first content, text and
 * reasoning (`reasoning_content`) deltas, tool calls numbered from 0 in start order, the finish chunk; `end` adds
 * the usage chunk when the client asked for it and `data: [DONE]`; `fail` is an error event and no `[DONE]`, so a
 * client never mistakes a cut-off answer for a complete one.
 *
 * A tool call's vendor artefact (which the shown id carries, see encodeChatToolCallId) arrives only with its end,
 * while a chat client takes the id from the call's first chunk. So a call is held while it has come whole so far
 * (at most one arguments piece: Gemini's calls, the only ones with artefacts, always do) and written at its end with
 * the artefact; a call whose arguments come in pieces is streamed from its second piece on, with its plain id.
 */
export function createChatStreamEncoder(identity: ChatAnswerIdentity, clientWantsUsage: boolean): ClientStreamEncoder {
  let roleSent = false;
  let usage: CanonicalUsage | undefined;
  /** a started tool call not yet written: its chat index, name and arguments so far, by block index */
  const pendingToolCalls = new Map<
    number,
    { index: number; callId: string; name: string; argumentsText: string; pieces: number }
  >();
  /** chat indices of tool calls already streaming, by block index */
  const streamingToolCalls = new Map<number, number>();
  let toolCallCount = 0;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    dataFrame(
      JSON.stringify({
        id: identity.id,
        object: 'chat.completion.chunk',
        created: identity.created,
        model: identity.model,
        choices,
        ...extra,
      }),
    );
  const deltaChunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    chunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  // OpenAI's first chunk carries the role; it is sent with the first content so parts without content write nothing.
  const withRole = (frames: string[], firstContentIsText: boolean): string[] => {
    if (roleSent) return frames;
    roleSent = true;
    return [deltaChunk({ role: 'assistant', content: firstContentIsText ? '' : null }), ...frames];
  };
  /** A held tool call as its chunks: the id (with the artefact), name and all arguments in one. */
  const writeToolCall = (blockIndex: number, artefact: VendorArtefact | undefined): string[] => {
    const call = pendingToolCalls.get(blockIndex);
    if (!call) return [];
    pendingToolCalls.delete(blockIndex);
    const toolCall = {
      index: call.index,
      id: encodeChatToolCallId(call.callId, artefact),
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    };
    return withRole([deltaChunk({ tool_calls: [toolCall] })], false);
  };
  /** Tool calls the vendor never ended (a cut answer) go out as they are before the finish or the end. */
  const writeUnendedToolCalls = (): string[] =>
    [...pendingToolCalls.keys()].flatMap((blockIndex) => writeToolCall(blockIndex, undefined));
  return {
    start: () => [],
    push(part) {
      switch (part.type) {
        case 'response-start':
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
        case 'reasoning-end':
          return [];
        case 'tool-call-end':
          return writeToolCall(part.blockIndex, part.artefact);
        case 'text-delta':
          return part.text ? withRole([deltaChunk({ content: part.text })], true) : [];
        case 'reasoning-delta':
          return part.text ? withRole([deltaChunk({ reasoning_content: part.text })], true) : [];
        case 'tool-call-start':
          pendingToolCalls.set(part.blockIndex, {
            index: toolCallCount++,
            callId: part.callId,
            name: part.name,
            argumentsText: '',
            pieces: 0,
          });
          return [];
        case 'tool-call-delta': {
          if (!part.argumentsDelta) return [];
          const streamingIndex = streamingToolCalls.get(part.blockIndex);
          if (streamingIndex !== undefined)
            return [
              deltaChunk({ tool_calls: [{ index: streamingIndex, function: { arguments: part.argumentsDelta } }] }),
            ];
          const call = pendingToolCalls.get(part.blockIndex);
          if (!call) return [];
          call.argumentsText += part.argumentsDelta;
          if (++call.pieces < 2) return [];
          streamingToolCalls.set(part.blockIndex, call.index);
          return writeToolCall(part.blockIndex, undefined);
        }
        case 'finish':
          return [...writeUnendedToolCalls(), ...withRole([deltaChunk({}, encodeChatFinishReason(part.finish))], true)];
        case 'usage':
          usage = part.usage;
          return [];
        case 'error':
          // The relay ends the stream with `fail` instead.
          return [];
        default:
          return assertNever(part, 'stream part');
      }
    },
    end() {
      const usageFrames = clientWantsUsage && usage ? [chunk([], { usage: encodeChatUsage(usage) })] : [];
      return [...writeUnendedToolCalls(), ...usageFrames, chatDoneFrame];
    },
    fail(failure) {
      return [dataFrame(JSON.stringify(new GatewayError(failure.code, failure.message).toBody()))];
    },
  };
}
