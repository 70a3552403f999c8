import { z } from 'zod';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import type { VendorCall } from '../vendor-adapter.js';
import type { AnthropicResponseMessage } from './anthropic-wire-types.js';
import { anthropicArtefactProducer } from './convert-anthropic-messages.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { parseAnthropicUsage } from './parse-anthropic-usage.js';

/** The parts of a `Message` the decoder relies on: its content blocks, and usage counts that are numbers when present. */
const anthropicMessageShape = z.object({
  content: z.array(z.object({ type: z.string() })),
  usage: z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).nullish(),
});

/**
 * A non-streamed Anthropic `Message` as canonical parts: text blocks, thinking blocks (their signature as the
 * reasoning's artefact), redacted thinking (an empty reasoning block carrying the data), tool_use blocks with
 * `JSON.stringify(input)` as arguments, then usage and the finish.
 */
export function decodeAnthropicResponse(bodyText: string, _call: VendorCall): CanonicalStreamPart[] {
  const parsed: unknown = JSON.parse(bodyText);
  // Checked at the edge: a body without its `content` blocks, or with counts that are not numbers, is no answer (dispatch answers 502).
  if (!anthropicMessageShape.safeParse(parsed).success)
    throw new Error('The Anthropic answer is not a Message with content blocks.');
  const message = parsed as AnthropicResponseMessage;
  const sequencer = new StreamBlockSequencer();
  const parts: CanonicalStreamPart[] = [
    { type: 'response-start', vendorResponseId: message.id, vendorModel: message.model },
  ];
  (message.content ?? []).forEach((block, blockIndex) => {
    if (block.type === 'text') {
      parts.push(...sequencer.startFlowing('text'), ...sequencer.text(block.text ?? ''), ...sequencer.endFlowing());
    } else if (block.type === 'thinking') {
      const artefact = block.signature
        ? { producer: anthropicArtefactProducer, signature: block.signature }
        : undefined;
      parts.push(
        ...sequencer.startFlowing('reasoning'),
        ...sequencer.reasoning(block.thinking ?? ''),
        ...sequencer.endFlowing(artefact),
      );
    } else if (block.type === 'redacted_thinking') {
      const artefact = block.data ? { producer: anthropicArtefactProducer, redactedData: block.data } : undefined;
      parts.push(...sequencer.startFlowing('reasoning'), ...sequencer.endFlowing(artefact));
    } else if (block.type === 'tool_use') {
      parts.push(
        ...sequencer.startToolCall(blockIndex, block.id ?? '', block.name ?? ''),
        ...sequencer.toolCallArguments(blockIndex, JSON.stringify(block.input ?? {})),
        ...sequencer.endToolCall(blockIndex),
      );
    }
  });
  if (message.usage) parts.push({ type: 'usage', usage: parseAnthropicUsage(message.usage) });
  const rawReason = message.stop_reason ?? null;
  parts.push({
    type: 'finish',
    finish: {
      reason: mapAnthropicStopReason(rawReason),
      rawReason,
      ...(message.stop_sequence ? { stopSequence: message.stop_sequence } : {}),
    },
  });
  return parts;
}
