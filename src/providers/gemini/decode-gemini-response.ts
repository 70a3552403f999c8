import { randomUUID } from 'node:crypto';
import type { ChatAdapter, VendorCall } from '../chat-adapter.js';
import { createChatCompletionObject, type DecodedChoice } from '../translated-stream/create-chat-completion-object.js';
import { createGeminiBaseCallId, encodeGeminiToolCallId } from './gemini-tool-call-id.js';
import type { GeminiCandidate, GeminiResponse } from './gemini-wire-types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { parseGeminiUsage } from './parse-gemini-usage.js';

/**
 * A `GenerateContentResponse` as an OpenAI chat completion, one choice per candidate: text parts joined
 * (thought summaries left out), functionCall parts as tool_calls with made-up ids that carry any thought
 * signature. A blocked prompt (no candidates, promptFeedback.blockReason) is one empty content_filter choice.
 */
export function decodeGeminiResponse(bodyText: string, call: VendorCall): ReturnType<ChatAdapter['decodeChatResponse']> {
  const response = JSON.parse(bodyText) as GeminiResponse;
  const responseId = response.responseId ?? randomUUID();
  const candidates = response.candidates ?? [];
  const choices: DecodedChoice[] =
    candidates.length > 0
      ? candidates.map((candidate, index) => decodeCandidate(candidate, responseId, candidate.index ?? index))
      : [{ text: null, toolCalls: [], finishReason: response.promptFeedback?.blockReason ? 'content_filter' : 'stop' }];
  return createChatCompletionObject({
    id: `chatcmpl-${responseId}`,
    created: Math.floor(call.clock() / 1000),
    model: call.publicModelId,
    choices,
    usage: response.usageMetadata ? parseGeminiUsage(response.usageMetadata) : undefined,
  });
}

function decodeCandidate(candidate: GeminiCandidate, responseId: string, candidateIndex: number): DecodedChoice {
  const parts = candidate.content?.parts ?? [];
  const texts = parts.filter((part) => typeof part.text === 'string' && part.thought !== true).map((part) => part.text as string);
  const toolCalls = parts
    .filter((part) => part.functionCall)
    .map((part, callIndex) => ({
      id: encodeGeminiToolCallId(part.functionCall?.id ?? createGeminiBaseCallId(responseId, candidateIndex, callIndex), part.thoughtSignature),
      name: part.functionCall?.name ?? '',
      arguments: JSON.stringify(part.functionCall?.args ?? {}),
    }));
  return { text: texts.length > 0 ? texts.join('') : null, toolCalls, finishReason: mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0) };
}
