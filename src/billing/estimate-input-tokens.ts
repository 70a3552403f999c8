import type { MeteredEndpoint } from './request-accounting.js';
import { estimateMediaPartTokens, type DocumentPageCounts } from './estimate-media-part-tokens.js';
import { estimateTextTokens } from './estimate-text-tokens.js';

/** Tokens added per chat message for the role and separators. */
const tokensPerMessage = 4;

/** Input tokens of a request body: its texts by UTF-8 length (see estimateTextTokens), media parts by size (see estimateMediaPartTokens). */
export function estimateInputTokens(
  endpoint: MeteredEndpoint,
  body: Record<string, unknown>,
  documentPages?: DocumentPageCounts,
): number {
  switch (endpoint) {
    case 'chat.completions':
      return estimateChatTokens(body, documentPages);
    case 'completions':
      return countPromptTokens(body.prompt);
    case 'embeddings':
      return countPromptTokens(body.input);
    case 'images.generations':
    case 'images.edits':
      return typeof body.prompt === 'string' ? estimateTextTokens(body.prompt) : 0;
    case 'audio.transcriptions':
    // Counted from the canonical request instead (see estimateCanonicalInputTokens).
    case 'responses':
    case 'messages':
      return 0;
    default: {
      const unreachable: never = endpoint;
      return unreachable;
    }
  }
}

function estimateChatTokens(body: Record<string, unknown>, documentPages: DocumentPageCounts | undefined): number {
  const texts: string[] = [];
  let tokens = 0;
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    tokens += tokensPerMessage;
    const {
      content,
      tool_calls: toolCalls,
      name,
    } = message as { content?: unknown; tool_calls?: unknown; name?: unknown };
    if (typeof name === 'string') texts.push(name);
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content as Array<{ type?: unknown; text?: unknown } | null>) {
        if (typeof part !== 'object' || part === null) continue;
        if (typeof part.text === 'string') texts.push(part.text);
        else tokens += estimateMediaPartTokens(part, documentPages) ?? 0;
      }
    }
    if (toolCalls !== undefined) texts.push(JSON.stringify(toolCalls));
  }
  if (body.tools !== undefined) texts.push(JSON.stringify(body.tools));
  if (body.response_format !== undefined) texts.push(JSON.stringify(body.response_format));
  tokens += estimateTextTokens(texts.join('\n'));
  return tokens;
}

function countPromptTokens(prompt: unknown): number {
  if (typeof prompt === 'string') return estimateTextTokens(prompt);
  if (!Array.isArray(prompt)) return 0;
  let tokens = 0;
  for (const item of prompt as unknown[]) {
    if (typeof item === 'string') tokens += estimateTextTokens(item);
    else if (typeof item === 'number') tokens += 1;
    else if (Array.isArray(item)) tokens += item.length;
  }
  return tokens;
}
