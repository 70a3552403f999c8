import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateMediaPartTokens } from '../../core/token-estimates/estimate-media-part-tokens.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import { readPositiveInteger } from '../shared/read-positive-integer.js';

/** Tokens added per chat message for the role and separators. */
const tokensPerMessage = 4;

/**
 * The fields of a chat request its hold estimate reads; a validated ChatCompletionRequest has them all. Typed loosely on
 * purpose: a loose schema keeps fields it does not know (a `tool_calls` on any message), and the estimate counts them.
 */
export interface ChatEstimateFields {
  messages: ReadonlyArray<{ role?: unknown; content?: unknown; tool_calls?: unknown; name?: unknown }>;
  n?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
  tools?: unknown;
  response_format?: unknown;
}

/**
 * The hold estimate of a chat completion: its texts by UTF-8 length (see estimateTextTokens, all joined and counted
 * once; tool calls, tools and the response format as their JSON), media parts by size (see estimateMediaPartTokens),
 * `max_completion_tokens`, else `max_tokens`, as the output cap of each of its `n` choices.
 */
export function estimateChatRequest(request: ChatEstimateFields): RequestEstimate {
  const texts: string[] = [];
  const inlinePdfs: string[] = [];
  let tokens = 0;
  for (const message of request.messages) {
    if (typeof message !== 'object' || message === null) continue;
    tokens += tokensPerMessage;
    const { content, tool_calls: toolCalls, name } = message;
    if (typeof name === 'string') texts.push(name);
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content as unknown[]) {
        if (typeof part !== 'object' || part === null) continue;
        if ('text' in part && typeof part.text === 'string') texts.push(part.text);
        else tokens += estimateMediaPartTokens(part, inlinePdfs) ?? 0;
      }
    }
    if (toolCalls !== undefined) texts.push(JSON.stringify(toolCalls));
  }
  if (request.tools !== undefined) texts.push(JSON.stringify(request.tools));
  if (request.response_format !== undefined) texts.push(JSON.stringify(request.response_format));
  tokens += estimateTextTokens(texts.join('\n'));
  return {
    inputTokens: tokens,
    inlinePdfs,
    outputTokenCap: readPositiveInteger(request.max_completion_tokens) ?? readPositiveInteger(request.max_tokens),
    generations: readPositiveInteger(request.n) ?? 1,
    requestedImages: undefined,
    transcriptionPromptTokens: 0,
  };
}
