import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateMediaPartTokens } from '../../core/token-estimates/estimate-media-part-tokens.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import type { ModerationRequest } from './moderation-request-schema.js';

/** The hold estimate of `POST /v1/moderations`: the tokens of its texts and images; nothing is generated. */
export function estimateModerationRequest(request: ModerationRequest): RequestEstimate {
  return {
    inputTokens: moderationInputTokens(request.input),
    inlinePdfs: [],
    outputTokenCap: 0,
    generations: 1,
    requestedImages: undefined,
    transcriptionPromptTokens: 0,
  };
}

function moderationInputTokens(input: ModerationRequest['input']): number {
  if (typeof input === 'string') return estimateTextTokens(input);
  let tokens = 0;
  for (const item of input) {
    if (typeof item === 'string') tokens += estimateTextTokens(item);
    else if (item.type === 'text') tokens += estimateTextTokens(item.text);
    else tokens += estimateMediaPartTokens(item, []) ?? 0;
  }
  return tokens;
}
