import { GatewayError } from '../../core/gateway-error.js';
import type { RoutedModelInputs } from '../../core/routed-model-inputs.js';
import type { ChatCompletionRequest } from './chat-completion-request-schema.js';

/** A 400 naming the first image part, when the model reads text only. */
export function rejectUnsupportedImages(model: RoutedModelInputs, messages: ChatCompletionRequest['messages']): void {
  if (model.inputModalities.includes('image')) return;
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'user' || typeof message.content === 'string') return;
    const partIndex = message.content.findIndex((part) => part.type === 'image_url');
    if (partIndex !== -1) {
      throw new GatewayError('invalid_request_error', `The model '${model.id}' does not support image input.`, {
        param: `messages[${messageIndex}].content[${partIndex}]`,
      });
    }
  });
}
