import { createAnswerBuilder } from '../../core/canonical/fold-stream-parts.js';
import type { ClientStreamEncoder } from '../../core/canonical/client-answer-codec.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { assertNever } from '../../core/assert-never.js';
import { encodeGeminiFinishReason } from './encode-gemini-finish-reason.js';
import { encodeGeminiParts, showsThoughtText, thoughtSignatureOf } from './encode-gemini-parts.js';
import { encodeGeminiUsage } from './encode-gemini-usage.js';
import type { GeminiEncodingContext } from './gemini-encoding-context.js';
import { geminiStreamFailureBody } from './gemini-error.js';
import type { GeminiAnswer, GeminiAnswerPart } from './gemini-wire-types.js';

/**
 * Writes one streamed answer as Gemini does: each chunk a GenerateContentResponse with only the new parts (text as it
 * comes, each functionCall whole), finishReason and usageMetadata on the last. The latest chunk is held back until the
 * next one (or the end) so that the last chunk carries content: @google/genai's chats drop a turn from their history
 * when any chunk has no part. Framing: `data: <json>` frames for `alt=sse` (no `[DONE]`), else a JSON array.
 */
export function createGeminiStreamEncoder(context: GeminiEncodingContext): ClientStreamEncoder {
  const builder = createAnswerBuilder();
  let heldParts: GeminiAnswerPart[] | undefined;
  let framesWritten = 0;

  const frame = (chunk: unknown): string => {
    const json = JSON.stringify(chunk);
    const first = framesWritten === 0;
    framesWritten += 1;
    if (context.streamFraming === 'sse') return `data: ${json}\r\n\r\n`;
    return first ? json : `,\r\n${json}`;
  };
  const chunkOf = (parts: GeminiAnswerPart[], last: boolean): GeminiAnswer => {
    const answer = builder.answer();
    return {
      candidates: [
        {
          content: { role: 'model', parts },
          ...(last && answer.finish ? { finishReason: encodeGeminiFinishReason(answer.finish) } : {}),
          index: 0,
        },
      ],
      ...(last ? { usageMetadata: encodeGeminiUsage(answer.usage) } : {}),
      modelVersion: context.model,
      responseId: context.responseId,
    };
  };
  const hold = (parts: GeminiAnswerPart[]): string[] => {
    if (parts.length === 0) return [];
    const previous = heldParts;
    heldParts = parts;
    return previous ? [frame(chunkOf(previous, false))] : [];
  };
  const partsOf = (part: CanonicalStreamPart): GeminiAnswerPart[] => {
    switch (part.type) {
      case 'text-delta':
        return part.text.length > 0 ? [{ text: part.text }] : [];
      case 'reasoning-delta':
        return context.includeThoughts && part.text.length > 0 ? [{ text: part.text, thought: true }] : [];
      case 'reasoning-end': {
        // The signature arrives with the end: it goes out as a thought part of its own, which parse joins to the text.
        if (!part.artefact) return [];
        // Text not streamed live (thoughts not asked for) goes out here when the signature needs it back.
        const block = builder.block(part.blockIndex);
        const shown = !context.includeThoughts && showsThoughtText(context, part.artefact);
        const unsent = shown && block?.type === 'reasoning' ? block.text : '';
        return [{ text: unsent, thought: true, thoughtSignature: thoughtSignatureOf(part.artefact, context) }];
      }
      case 'tool-call-end': {
        const block = builder.block(part.blockIndex);
        return block ? encodeGeminiParts(block, context) : [];
      }
      case 'response-start':
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
      case 'tool-call-start':
      case 'tool-call-delta':
      case 'finish':
      case 'usage':
      case 'error':
        return [];
      default:
        return assertNever(part, 'stream part');
    }
  };

  return {
    start: () => (context.streamFraming === 'json-array' ? ['['] : []),
    push(part) {
      builder.add(part);
      return hold(partsOf(part));
    },
    end() {
      const last = frame(chunkOf(heldParts ?? [{ text: '' }], true));
      heldParts = undefined;
      return context.streamFraming === 'json-array' ? [last, ']'] : [last];
    },
    fail(failure) {
      const frames = heldParts ? [frame(chunkOf(heldParts, false))] : [];
      heldParts = undefined;
      frames.push(frame(geminiStreamFailureBody(failure)));
      return context.streamFraming === 'json-array' ? [...frames, ']'] : frames;
    },
  };
}
