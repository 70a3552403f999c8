import { z } from 'zod';
import { noExtraAnswerUsage, type AnswerUsage, type TranscriptionUsage } from '../core/answer-usage.js';
import type { TokenUsage } from '../core/token-usage.js';
import { findUsageObject } from '../providers/openai/parse-openai-usage.js';

/** An images answer: its `data` array is what is billed, one image each. */
const imagesAnswerSchema = z.object({ data: z.array(z.unknown()) });

/** A string where one is expected; anything else counts as absent (vendors send null or omit fields). */
const lenientString = z.string().optional().catch(undefined);

/** The text-bearing fields of an OpenAI-wire chat or completions answer, each read leniently. */
const textAnswerSchema = z.object({
  choices: z.array(
    z
      .object({
        text: lenientString,
        message: z
          .object({
            content: lenientString,
            reasoning_content: lenientString,
            tool_calls: z
              .array(z.object({ function: z.object({ arguments: lenientString }).optional().catch(undefined) }))
              .optional()
              .catch(undefined),
          })
          .optional()
          .catch(undefined),
      })
      .catch({}),
  ),
});

/** OpenAI's transcription `usage`: `{type: 'duration', seconds}` or `{type: 'tokens', input_tokens, output_tokens}`. */
const transcriptionUsageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('duration'), seconds: z.number() }),
  z.object({
    type: z.literal('tokens'),
    input_tokens: z.number().optional().catch(undefined),
    output_tokens: z.number().optional().catch(undefined),
  }),
]);

/** A JSON transcription (`json`, `verbose_json`): its usage and, in verbose_json, the audio's duration. */
const transcriptionAnswerSchema = z.object({
  usage: z.unknown().optional(),
  duration: z.number().optional().catch(undefined),
});

/**
 * What billing needs from a successful non-streamed OpenAI-wire answer besides its token usage, read once here where
 * the answer is read: the images returned, a transcription's reported duration or tokens, or the generated text of an
 * answer without usage (for the tokenizer). `usage` is the token usage already read from the same answer.
 */
export function readOpenAiWireAnswerUsage(
  upstreamPath: string,
  bodyText: string,
  usage: TokenUsage | undefined,
): AnswerUsage {
  if (upstreamPath.startsWith('/images/')) return { images: countImages(bodyText) };
  if (upstreamPath === '/audio/transcriptions') return { transcription: readTranscriptionUsage(bodyText) };
  if (usage) return noExtraAnswerUsage;
  return { text: upstreamPath === '/embeddings' ? '' : readAnswerText(bodyText) };
}

function countImages(bodyText: string): number | undefined {
  const checked = imagesAnswerSchema.safeParse(parseJson(bodyText));
  return checked.success ? checked.data.data.length : undefined;
}

/** The text a chat or completions answer generated: content, legacy text, reasoning and tool arguments, as streams count. */
function readAnswerText(bodyText: string): string {
  const checked = textAnswerSchema.safeParse(parseJson(bodyText));
  if (!checked.success) return '';
  const parts: string[] = [];
  for (const choice of checked.data.choices) {
    if (choice.text !== undefined) parts.push(choice.text);
    const message = choice.message;
    if (!message) continue;
    if (message.reasoning_content !== undefined) parts.push(message.reasoning_content);
    if (message.content !== undefined) parts.push(message.content);
    for (const call of message.tool_calls ?? []) if (call.function?.arguments) parts.push(call.function.arguments);
  }
  return parts.join('');
}

/**
 * A transcription's reported usage: a JSON answer's `usage` (and verbose_json's `duration`); a text, srt, vtt or
 * streamed (SSE) answer's last `"usage"` object, which a stream carries in its last event.
 */
function readTranscriptionUsage(bodyText: string): TranscriptionUsage {
  const parsed = parseJson(bodyText);
  const answer = parsed === undefined ? undefined : transcriptionAnswerSchema.safeParse(parsed);
  const usageValue = parsed === undefined ? findUsageObject(bodyText) : answer?.success ? answer.data.usage : undefined;
  const usage = transcriptionUsageSchema.safeParse(usageValue);
  const duration = answer?.success ? answer.data.duration : undefined;
  if (!usage.success) return withSeconds({}, duration);
  const reported = usage.data;
  switch (reported.type) {
    case 'duration':
      return withSeconds({}, reported.seconds);
    case 'tokens': {
      const tokens = { inputTokens: toCount(reported.input_tokens), outputTokens: toCount(reported.output_tokens) };
      return withSeconds({ tokens }, duration);
    }
    default: {
      const unreachable: never = reported;
      throw new Error(`Unhandled transcription usage ${String(unreachable)}`);
    }
  }
}

/** `usage` with `seconds` when they are a real duration (finite, above zero). */
function withSeconds(usage: TranscriptionUsage, seconds: number | undefined): TranscriptionUsage {
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? { ...usage, seconds } : usage;
}

/** The JSON value of a text, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toCount(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
