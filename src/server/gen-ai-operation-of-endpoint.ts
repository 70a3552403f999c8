import { assertNever } from '../core/assert-never.js';
import type { MeteredEndpoint } from '../billing/request-accounting.js';

/**
 * The `gen_ai.operation.name` of a /v1 endpoint by the GenAI conventions: chat for the conversational APIs (chat
 * completions, Responses, Messages), text_completion, embeddings, and generate_content for the multimodal ones the
 * conventions name no operation for (images, transcriptions).
 */
export function genAiOperationOfEndpoint(endpoint: MeteredEndpoint): string {
  switch (endpoint) {
    case 'chat.completions':
    case 'responses':
    case 'messages':
      return 'chat';
    case 'completions':
      return 'text_completion';
    case 'embeddings':
      return 'embeddings';
    case 'images.generations':
    case 'images.edits':
    case 'audio.transcriptions':
    case 'audio.speech':
    case 'moderations':
      return 'generate_content';
    default:
      return assertNever(endpoint, 'metered endpoint');
  }
}
