import { z } from 'zod';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { GatewayError } from '../../core/gateway-error.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import type { VendorCall } from '../vendor-adapter.js';
import type { BedrockConverseResponseBody } from './bedrock-converse-types.js';
import { bedrockArtefactProducer } from './convert-bedrock-messages.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';
import { parseBedrockUsage } from './parse-bedrock-usage.js';

/**
 * A non-streamed Converse answer as canonical parts: text blocks, reasoningContent (its signature or redacted
 * content as the reasoning's artefact), toolUse blocks with `JSON.stringify(input)` as arguments, usage and finish.
 */
export function decodeBedrockChatResponse(bodyText: string, _call: VendorCall): CanonicalStreamPart[] {
  const body = parseBody(bodyText);
  const sequencer = new StreamBlockSequencer();
  const parts: CanonicalStreamPart[] = [{ type: 'response-start' }];
  (body.output?.message?.content ?? []).forEach((block, blockIndex) => {
    if ('text' in block && typeof block.text === 'string') {
      parts.push(...sequencer.startFlowing('text'), ...sequencer.text(block.text), ...sequencer.endFlowing());
    } else if ('reasoningContent' in block && block.reasoningContent) {
      const { reasoningText, redactedContent } = block.reasoningContent;
      const artefact = redactedContent
        ? { producer: bedrockArtefactProducer, redactedData: redactedContent }
        : reasoningText?.signature
          ? { producer: bedrockArtefactProducer, signature: reasoningText.signature }
          : undefined;
      parts.push(
        ...sequencer.startFlowing('reasoning'),
        ...sequencer.reasoning(reasoningText?.text ?? ''),
        ...sequencer.endFlowing(artefact),
      );
    } else if ('toolUse' in block && block.toolUse) {
      parts.push(
        ...sequencer.startToolCall(blockIndex, block.toolUse.toolUseId, block.toolUse.name),
        ...sequencer.toolCallArguments(blockIndex, JSON.stringify(block.toolUse.input ?? {})),
        ...sequencer.endToolCall(blockIndex),
      );
    }
  });
  const usage = parseBedrockUsage(body.usage);
  if (usage) parts.push({ type: 'usage', usage });
  parts.push({
    type: 'finish',
    finish: { reason: mapBedrockStopReason(body.stopReason), rawReason: body.stopReason ?? null },
  });
  return parts;
}

/** The parts of a Converse response the decoder relies on: its `output`, and usage counts that are numbers when present. */
const converseResponseShape = z.object({
  output: z.object({}),
  usage: z.object({ inputTokens: z.number().nullish(), outputTokens: z.number().nullish() }).nullish(),
});

function parseBody(bodyText: string): BedrockConverseResponseBody {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    // Checked at the edge: a body without its `output`, or with counts that are not numbers, is no answer (dispatch answers 502).
    if (converseResponseShape.safeParse(parsed).success) return parsed as BedrockConverseResponseBody;
  } catch {
    // Falls through to the error below; the body itself is never shown.
  }
  throw new GatewayError('server_error', 'The upstream vendor sent an answer that is not a Converse response.');
}
