import type { ClientStreamEncoder } from '../../core/canonical/client-answer-codec.js';
import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
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
 */
export function createChatStreamEncoder(identity: ChatAnswerIdentity, clientWantsUsage: boolean): ClientStreamEncoder {
  let roleSent = false;
  let usage: CanonicalUsage | undefined;
  const toolCallIndexByBlock = new Map<number, number>();
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    dataFrame(JSON.stringify({ id: identity.id, object: 'chat.completion.chunk', created: identity.created, model: identity.model, choices, ...extra }));
  const deltaChunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    chunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  // OpenAI's first chunk carries the role; it is sent with the first content so parts without content write nothing.
  const withRole = (frames: string[], firstContentIsText: boolean): string[] => {
    if (roleSent) return frames;
    roleSent = true;
    return [deltaChunk({ role: 'assistant', content: firstContentIsText ? '' : null }), ...frames];
  };
  return {
    start: () => [],
    push(part) {
      switch (part.type) {
        case 'response-start':
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
        case 'reasoning-end':
        case 'tool-call-end':
          return [];
        case 'text-delta':
          return part.text ? withRole([deltaChunk({ content: part.text })], true) : [];
        case 'reasoning-delta':
          return part.text ? withRole([deltaChunk({ reasoning_content: part.text })], true) : [];
        case 'tool-call-start': {
          const index = toolCallIndexByBlock.size;
          toolCallIndexByBlock.set(part.blockIndex, index);
          return withRole([deltaChunk({ tool_calls: [{ index, id: part.callId, type: 'function', function: { name: part.name, arguments: '' } }] })], false);
        }
        case 'tool-call-delta': {
          const index = toolCallIndexByBlock.get(part.blockIndex);
          return index !== undefined && part.argumentsDelta ? [deltaChunk({ tool_calls: [{ index, function: { arguments: part.argumentsDelta } }] })] : [];
        }
        case 'finish':
          return withRole([deltaChunk({}, encodeChatFinishReason(part.finish))], true);
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
      return [...usageFrames, chatDoneFrame];
    },
    fail(failure) {
      return [dataFrame(JSON.stringify(new GatewayError(failure.code, failure.message).toBody()))];
    },
  };
}
