import type { ClientAnswerCodec } from '../../core/canonical/client-answer-codec.js';
import { encodeMessage } from './encode-message.js';
import type { MessagesEncodingContext } from './messages-encoding-context.js';
import { messagesParamInverts, messagesParamName } from './messages-param-name.js';
import { createMessagesStreamEncoder } from './messages-stream-encoder.js';

/** The Anthropic Messages codec for one request: the Message JSON, or its event stream. */
export function createMessagesAnswerCodec(context: MessagesEncodingContext): ClientAnswerCodec {
  return {
    encodeAnswer: (answer) => JSON.stringify(encodeMessage(answer, context)),
    createStreamEncoder: () => createMessagesStreamEncoder(context),
    clientParam: (chatParam) =>
      chatParam === 'reasoning_effort' && context.effortParam ? context.effortParam : messagesParamName(chatParam),
    clientParamInverts: messagesParamInverts,
  };
}
