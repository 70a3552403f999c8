import type { MeteredRequest, MeteredResult } from './request-accounting.js';

/**
 * The text whose tokens must be counted before a token-priced request can be billed: the text a stream generated
 * before it ended without usage (client gone, upstream cut), or the answer of a success without usage. Undefined when
 * the vendor's usage is there (the fast path) or there is no answer to count.
 */
export function findUncountedAnswerText(request: MeteredRequest, result: MeteredResult): string | undefined {
  const { endpoint } = request;
  switch (endpoint) {
    case 'images.generations':
    case 'images.edits':
    case 'audio.transcriptions':
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
  // Only a successful answer is billed without usage (the client may have left meanwhile).
  const answered = result.status < 400 || result.responseText !== undefined;
  if (!answered || result.responseText === undefined) return undefined;
  return extractAnswerText(result.responseText);
}

function extractAnswerText(responseText: string): string {
  let parsed: { choices?: Array<{ text?: unknown; message?: { content?: unknown } }> } | undefined;
  try {
    parsed = JSON.parse(responseText) as typeof parsed;
  } catch {
    return '';
  }
  if (!Array.isArray(parsed?.choices)) return '';
  return parsed.choices
    .map((choice) =>
      typeof choice.text === 'string'
        ? choice.text
        : typeof choice.message?.content === 'string'
          ? choice.message.content
          : '',
    )
    .join('');
}
