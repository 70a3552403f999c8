import type { CanonicalAnswer } from '../../core/canonical/canonical-answer.js';
import type { ChatCompletionObject } from './chat-completion-object.js';
import { encodeChatToolCallId } from './chat-tool-call-id.js';
import { encodeChatFinishReason } from './encode-chat-finish-reason.js';
import { encodeChatUsage } from './encode-chat-usage.js';

/** What every chat answer of one request shares. */
export interface ChatAnswerIdentity {
  /** the completion id, `chatcmpl-…` (the vendor's own id is never shown) */
  id: string;
  /** the public model id the client asked for */
  model: string;
  /** Unix seconds */
  created: number;
}

/**
 * A canonical answer as OpenAI's `chat.completion`: text blocks joined (null when there is none), tool-call blocks
 * as `tool_calls` (a call's vendor artefact carried in its id). Reasoning is not shown (the chat message has no field for it); its tokens are in the usage.
 */
export function encodeChatCompletion(answer: CanonicalAnswer, identity: ChatAnswerIdentity): ChatCompletionObject {
  const texts: string[] = [];
  const toolCalls: NonNullable<ChatCompletionObject['choices'][number]['message']['tool_calls']> = [];
  for (const block of answer.blocks) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool-call')
      toolCalls.push({
        id: encodeChatToolCallId(block.callId, block.artefact),
        type: 'function',
        function: { name: block.name, arguments: block.arguments },
      });
  }
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: texts.length > 0 ? texts.join('') : null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: encodeChatFinishReason(answer.finish),
      },
    ],
    usage: encodeChatUsage(answer.usage),
  };
}
