import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import type { TokenUsage } from '../../core/token-usage.js';
import { assertNever } from './assert-never.js';
import { encodeOpenAiUsage } from './encode-openai-usage.js';

/** What every chunk of one translated stream shares. */
export interface OpenAiChunkEncoderOptions {
  /** the completion id, e.g. `chatcmpl-…`; a `start` part with a vendor id replaces it before the first chunk */
  id: string;
  /** the public model id the client asked for */
  model: string;
  /** Unix seconds */
  created: number;
  /** true when the client asked for `stream_options.include_usage`: a last chunk with `choices: []` and the usage */
  clientWantsUsage: boolean;
}

/** Turns canonical stream parts into OpenAI `chat.completion.chunk` JSON strings (the `data:` payloads). */
export interface OpenAiChunkEncoder {
  /** the chunks for one part, possibly none */
  encode(part: ChatStreamPart): string[];
  /** the chunks after the last part: the usage chunk when the client asked for it */
  end(): string[];
}

/** Creates the one encoder every translated stream (Anthropic, Gemini, Bedrock) is relayed through. */
export function createOpenAiChunkEncoder(options: OpenAiChunkEncoderOptions): OpenAiChunkEncoder {
  let id = options.id;
  let roleSent = false;
  let usage: TokenUsage | undefined;

  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created: options.created, model: options.model, choices, ...extra });
  const deltaChunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    chunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  // OpenAI's first chunk carries the role; it is sent with the first content so a bare `start` writes nothing.
  const withRole = (chunks: string[], firstContentIsText: boolean): string[] => {
    if (roleSent) return chunks;
    roleSent = true;
    return [deltaChunk({ role: 'assistant', content: firstContentIsText ? '' : null }), ...chunks];
  };

  return {
    encode(part) {
      switch (part.type) {
        case 'start':
          if (!roleSent && part.responseId) id = part.responseId;
          return [];
        case 'text-delta':
          return part.text ? withRole([deltaChunk({ content: part.text })], true) : [];
        case 'reasoning-delta':
          return part.text ? withRole([deltaChunk({ reasoning_content: part.text })], true) : [];
        case 'tool-call-start':
          return withRole(
            [deltaChunk({ tool_calls: [{ index: part.toolCallIndex, id: part.id, type: 'function', function: { name: part.name, arguments: '' } }] })],
            false,
          );
        case 'tool-input-delta':
          return part.argumentsDelta ? [deltaChunk({ tool_calls: [{ index: part.toolCallIndex, function: { arguments: part.argumentsDelta } }] })] : [];
        case 'finish':
          return withRole([deltaChunk({}, part.finishReason)], true);
        case 'usage':
          usage = part.usage;
          return [];
        case 'error':
          // The relay turns errors into an OpenAI error event itself.
          return [];
        default:
          return assertNever(part, 'stream part');
      }
    },
    end() {
      if (!options.clientWantsUsage || !usage) return [];
      return [chunk([], { usage: encodeOpenAiUsage(usage) })];
    },
  };
}
