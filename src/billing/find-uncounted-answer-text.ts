import type { MeteredRequest, MeteredResult } from './request-accounting.js';

/**
 * The text whose tokens must be counted before a token-priced request can be billed: the text a stream generated
 * before it ended without usage (client gone, upstream cut), or the answer of a success without usage. Undefined when
 * the vendor's usage is there (the fast path) or there is no answer to count. Reads typed fields only, never vendor text.
 */
export function findUncountedAnswerText(request: MeteredRequest, result: MeteredResult): string | undefined {
  const { endpoint } = request;
  switch (endpoint) {
    case 'images.generations':
    case 'images.edits':
    case 'audio.transcriptions':
    // Speech and moderation answers carry no text to count: without usage they are billed by their estimate.
    case 'audio.speech':
    case 'moderations':
      return undefined;
    case 'chat.completions':
    case 'completions':
    case 'embeddings':
    case 'responses':
    case 'messages':
      return findTokenAnswerText(result);
    default: {
      const unreachable: never = endpoint;
      return unreachable;
    }
  }
}

function findTokenAnswerText(result: MeteredResult): string | undefined {
  if (result.usage) return undefined;
  if (result.generatedText !== undefined) return result.generatedText;
  // Only an answer the vendor gave is billed without usage (the client may have left meanwhile); the edge that read it
  // extracted its text once (answerUsage.text).
  if (result.answerUsage === undefined) return undefined;
  return result.answerUsage.text ?? '';
}
