import { GatewayError } from '../../core/gateway-error.js';
import type { RoutedModelInputs } from '../../core/routed-model-inputs.js';

/**
 * A 400 naming the first image block of a (validated) Messages body, user block or inside a `tool_result`, when the
 * model reads text only: the same rule as chat's image parts (rejectUnsupportedImages), in the client's own paths.
 */
export function rejectUnsupportedMessageImages(model: RoutedModelInputs, body: Record<string, unknown>): void {
  if (model.inputModalities.includes('image')) return;
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  messages.forEach((message, messageIndex) => {
    if (!Array.isArray(message.content)) return;
    (message.content as Array<{ type?: unknown; content?: unknown }>).forEach((block, blockIndex) => {
      const where = `messages[${messageIndex}].content[${blockIndex}]`;
      if (block.type === 'image') refuse(model, where);
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        const imageIndex = (block.content as Array<{ type?: unknown }>).findIndex((inner) => inner.type === 'image');
        if (imageIndex !== -1) refuse(model, `${where}.content[${imageIndex}]`);
      }
    });
  });
}

function refuse(model: RoutedModelInputs, param: string): never {
  throw new GatewayError(
    'invalid_request_error',
    `The model '${model.id}' does not support image input: '${param}' is an image.`,
    { param },
  );
}
