import type { BedrockCachePoint, BedrockConverseRequestBody } from './bedrock-converse-types.js';

/** The one checkpoint kind Converse has (5 minutes, reset on every hit). */
const cachePoint: BedrockCachePoint = { cachePoint: { type: 'default' } };

/**
 * Models that take Converse cache checkpoints (AWS's prompt-caching table): Claude 3.5 Haiku, 3.7 Sonnet and the
 * Claude 4 family, and Amazon Nova (Micro, Lite, Pro, Premier). Claude 3.5 Sonnet v2 kept it from its preview only.
 */
const claudeCachingModel = /claude-(?:3-5-haiku|3-7-sonnet|(?:sonnet|opus|haiku)-[4-9])/;
const novaCachingModel = /nova-(?:\d+-)?(?:micro|lite|pro|premier)/;

/** Whether Bedrock caches prompts of this model id (bare, cross-region `us.` or `global.` prefixed, or in an ARN). */
export function supportsBedrockPromptCaching(modelId: string): boolean {
  return claudeCachingModel.test(modelId) || novaCachingModel.test(modelId);
}

/**
 * The gateway's prompt-cache checkpoints for a caching model, as it places Anthropic's breakpoints
 * (placeAnthropicCacheBreakpoints): after the tools (Claude only; Nova takes none there), after the system prompt and
 * after the last message, three of Bedrock's four. Each turn then writes its whole prompt and the next, which repeats
 * it, reads it back. A checkpoint before the model's minimum prefix (1,024 tokens for most) is accepted and caches
 * nothing, so no token estimate is needed. Other models get the body unchanged. Changes `body` in place.
 */
export function placeBedrockCachePoints(body: BedrockConverseRequestBody, modelId: string): void {
  if (!supportsBedrockPromptCaching(modelId)) return;
  if (body.toolConfig && claudeCachingModel.test(modelId)) body.toolConfig.tools.push(cachePoint);
  if (body.system && body.system.length > 0) body.system.push(cachePoint);
  const last = body.messages.at(-1);
  if (last && last.content.length > 0) last.content.push(cachePoint);
}
