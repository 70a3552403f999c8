import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import type { VendorCall } from '../vendor-adapter.js';
import type { AnthropicResponseMessage } from './anthropic-wire-types.js';
import { anthropicArtefactProducer } from './convert-anthropic-messages.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { parseAnthropicUsage } from './parse-anthropic-usage.js';

/**
 * A non-streamed Anthropic `Message` as canonical parts: text blocks, thinking blocks (their signature as the
 * reasoning's artefact), redacted thinking (an empty reasoning block carrying the data), tool_use blocks with
 * `JSON.stringify(input)` as arguments, then usage and the finish.
 */
export function decodeAnthropicResponse(bodyText: string, _call: VendorCall): CanonicalStreamPart[] {
  const message = JSON.parse(bodyText) as AnthropicResponseMessage;
  const sequencer = new StreamBlockSequencer();
  const parts: CanonicalStreamPart[] = [{ type: 'response-start', vendorResponseId: message.id, vendorModel: message.model }];
  (message.content ?? []).forEach((block, blockIndex) => {
    if (block.type === 'text') {
      parts.push(...sequencer.startFlowing('text'), ...sequencer.text(block.text ?? ''), ...sequencer.endFlowing());
    } else if (block.type === 'thinking') {
      const artefact = block.signature ? { producer: anthropicArtefactProducer, signature: block.signature } : undefined;
      parts.push(...sequencer.startFlowing('reasoning'), ...sequencer.reasoning(block.thinking ?? ''), ...sequencer.endFlowing(artefact));
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
  parts.push({ type: 'finish', finish: { reason: mapAnthropicStopReason(rawReason), rawReason, ...(message.stop_sequence ? { stopSequence: message.stop_sequence } : {}) } });
  return parts;
}
