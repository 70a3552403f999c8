import { z } from 'zod';
import type { Readable } from 'node:stream';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import { readServerSentEvents } from '../read-server-sent-events.js';
import type { VendorCall } from '../vendor-adapter.js';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.js';
import { parseOpenAiCanonicalUsage } from './parse-openai-canonical-usage.js';

/** A tool call in a chat message or a chunk's delta (chunks number calls by `index`). */
interface OpenAiToolCallFields {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** A chat message or a chunk's delta, as far as the decoder reads it (`reasoning_content`: DeepSeek, vLLM, ...). */
interface OpenAiMessageFields {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: OpenAiToolCallFields[] | null;
}

/** A `chat.completion` or a `chat.completion.chunk`. */
interface OpenAiChatAnswer {
  id?: string;
  model?: string;
  choices?: Array<{
    index?: number;
    message?: OpenAiMessageFields;
    delta?: OpenAiMessageFields;
    finish_reason?: string | null;
  }>;
  usage?: unknown;
  error?: { message?: unknown; code?: unknown; type?: unknown };
}

/**
 * Decodes OpenAI chat answers into canonical parts, choice 0 only (canonical requests ask for one): reasoning
 * (`reasoning_content`) and text into blocks, tool calls by their index, the finish reason and the usage (a stream
 * sends it in its last chunk, after the finish).
 */
class OpenAiChatAnswerDecoder {
  private readonly sequencer = new StreamBlockSequencer();
  private started = false;

  decode(answer: OpenAiChatAnswer): CanonicalStreamPart[] {
    const parts: CanonicalStreamPart[] = [];
    if (!this.started) {
      this.started = true;
      parts.push({ type: 'response-start', vendorResponseId: answer.id, vendorModel: answer.model });
    }
    const choice = answer.choices?.find((entry) => (entry.index ?? 0) === 0);
    const fields = choice?.message ?? choice?.delta;
    if (fields?.reasoning_content) parts.push(...this.sequencer.reasoning(fields.reasoning_content));
    if (fields?.content) parts.push(...this.sequencer.text(fields.content));
    (fields?.tool_calls ?? []).forEach((toolCall, position) => {
      const key = toolCall.index ?? position;
      if (!this.sequencer.hasToolCall(key))
        parts.push(...this.sequencer.startToolCall(key, toolCall.id ?? '', toolCall.function?.name ?? ''));
      parts.push(...this.sequencer.toolCallArguments(key, toolCall.function?.arguments ?? ''));
    });
    if (choice?.finish_reason) {
      parts.push(...this.sequencer.endAll(), {
        type: 'finish',
        finish: { reason: mapOpenAiFinishReason(choice.finish_reason), rawReason: choice.finish_reason },
      });
    }
    const usage = parseOpenAiCanonicalUsage(answer.usage);
    if (usage) parts.push({ type: 'usage', usage });
    return parts;
  }
}

/** The parts of a `chat.completion` the decoder relies on: its `choices`, and usage counts that are numbers when present. */
const chatCompletionShape = z.object({
  choices: z.array(z.object({})),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      total_tokens: z.number().nullish(),
    })
    .nullish(),
});

/** A non-streamed `chat.completion` as canonical parts; a body without `choices` or with bad usage throws (dispatch answers 502). */
export function decodeOpenAiChatResponse(bodyText: string, _call: VendorCall): CanonicalStreamPart[] {
  const parsed: unknown = JSON.parse(bodyText);
  if (!chatCompletionShape.safeParse(parsed).success)
    throw new Error('The OpenAI-wire answer is not a chat.completion with choices.');
  return new OpenAiChatAnswerDecoder().decode(parsed as OpenAiChatAnswer);
}

/** A chat completions SSE stream as canonical parts; `[DONE]` ends it, an error object mid-stream is an error part. */
export async function* decodeOpenAiChatStream(body: Readable, _call: VendorCall): AsyncGenerator<CanonicalStreamPart> {
  const decoder = new OpenAiChatAnswerDecoder();
  for await (const event of readServerSentEvents(body)) {
    if (event.data.trim() === '[DONE]') return;
    const chunk = parseChunk(event.data);
    if (!chunk) {
      // Each chunk is a JSON object: anything else (an HTML page, cut-off JSON) ends the answer.
      if (event.data.trim() === '') continue;
      yield {
        type: 'error',
        failure: {
          code: 'server_error',
          message: 'The upstream vendor sent a stream event the gateway could not read; the answer is incomplete.',
        },
      };
      return;
    }
    if (chunk.error) {
      const message =
        typeof chunk.error.message === 'string' ? chunk.error.message : 'The upstream vendor failed mid-stream.';
      const code = chunk.error.code === 'rate_limit_exceeded' ? 'rate_limit_exceeded' : 'server_error';
      yield { type: 'error', failure: { code, message } };
      return;
    }
    yield* decoder.decode(chunk);
  }
}

function parseChunk(data: string): OpenAiChatAnswer | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' ? (parsed as OpenAiChatAnswer) : undefined;
  } catch {
    return undefined;
  }
}
