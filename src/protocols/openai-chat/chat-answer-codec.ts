import type { ClientAnswerCodec } from '../../core/canonical/client-answer-codec.js';
import { createChatStreamEncoder } from './chat-stream-encoder.js';
import { encodeChatCompletion, type ChatAnswerIdentity } from './encode-chat-completion.js';

/**
 * The OpenAI chat client protocol as a ClientAnswerCodec: `chat.completion` JSON, or chunk frames ending in the
 * usage chunk (when `clientWantsUsage`) and `data: [DONE]`.
 */
export function createChatAnswerCodec(identity: ChatAnswerIdentity, clientWantsUsage: boolean): ClientAnswerCodec {
  return {
    encodeAnswer: (answer) => JSON.stringify(encodeChatCompletion(answer, identity)),
    createStreamEncoder: () => createChatStreamEncoder(identity, clientWantsUsage),
  };
}
