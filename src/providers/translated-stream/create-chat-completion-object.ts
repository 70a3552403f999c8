import type { FinishReason } from '../../core/chat-stream-part.js';
import type { TokenUsage } from '../../core/token-usage.js';
import type { ChatCompletionObject, ChatAdapter } from '../chat-adapter.js';
import { emptyTokenUsage, encodeOpenAiUsage } from './encode-openai-usage.js';

/** One decoded choice of a translated, non-streamed answer. */
export interface DecodedChoice {
  /** the text blocks joined, or null when there was none */
  text: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: FinishReason;
}

/** Builds OpenAI's `chat.completion` object from decoded choices, the same way for every translated vendor. */
export function createChatCompletionObject(options: {
  id: string;
  /** Unix seconds */
  created: number;
  model: string;
  choices: DecodedChoice[];
  usage: TokenUsage | undefined;
}): ReturnType<ChatAdapter['decodeChatResponse']> {
  const completion: ChatCompletionObject = {
    id: options.id,
    object: 'chat.completion',
    created: options.created,
    model: options.model,
    choices: options.choices.map((choice, index) => ({
      index,
      message: {
        role: 'assistant',
        content: choice.text,
        refusal: null,
        ...(choice.toolCalls.length > 0
          ? { tool_calls: choice.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })) }
          : {}),
      },
      logprobs: null,
      finish_reason: choice.finishReason,
    })),
    usage: encodeOpenAiUsage(options.usage ?? emptyTokenUsage),
  };
  return { completion, usage: options.usage };
}
