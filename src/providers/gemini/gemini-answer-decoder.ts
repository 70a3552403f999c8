import { randomUUID } from 'node:crypto';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { StreamBlockSequencer } from '../stream-block-sequencer.js';
import { geminiArtefactProducer } from './convert-gemini-contents.js';
import { createGeminiBaseCallId } from './gemini-tool-call-id.js';
import type { GeminiResponse, GeminiUsageMetadata } from './gemini-wire-types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { parseGeminiUsage } from './parse-gemini-usage.js';

/**
 * Decodes GenerateContentResponses (a whole answer, or each chunk of a stream holding only new parts) into canonical
 * parts, candidate 0 only (the gateway asks for one): text → text blocks, thought parts → reasoning blocks, each
 * whole functionCall → a tool call with its own plain id (its `thoughtSignature` as the call's artefact, which each
 * client protocol carries back its own way), a thought signature on other parts → the open reasoning block's artefact; the last usageMetadata goes out
 * with the finish only (an earlier one would under-count a cut-off stream); finishReason or a prompt blockReason → finish.
 */
export class GeminiAnswerDecoder {
  private readonly sequencer = new StreamBlockSequencer();
  private responseId: string | undefined;
  private usage: GeminiUsageMetadata | undefined;
  private toolCallCount = 0;
  private pendingThoughtSignature: string | undefined;

  /** The parts one response or chunk adds. */
  decode(chunk: GeminiResponse): CanonicalStreamPart[] {
    const parts: CanonicalStreamPart[] = [];
    if (this.responseId === undefined) {
      this.responseId = chunk.responseId ?? randomUUID();
      parts.push({ type: 'response-start', vendorResponseId: chunk.responseId, vendorModel: chunk.modelVersion });
    }
    const candidate = chunk.candidates?.find((entry) => (entry.index ?? 0) === 0);
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        parts.push(...this.endReasoning());
        const key = this.toolCallCount++;
        const baseId = part.functionCall.id ?? createGeminiBaseCallId(this.responseId, 0, key);
        const artefact = part.thoughtSignature
          ? { producer: geminiArtefactProducer, signature: part.thoughtSignature }
          : undefined;
        parts.push(
          ...this.sequencer.startToolCall(key, baseId, part.functionCall.name),
          ...this.sequencer.toolCallArguments(key, JSON.stringify(part.functionCall.args ?? {})),
          ...this.sequencer.endToolCall(key, artefact),
        );
      } else if (typeof part.text === 'string') {
        if (part.thought) {
          parts.push(...this.sequencer.reasoning(part.text));
          if (part.thoughtSignature) this.pendingThoughtSignature = part.thoughtSignature;
        } else {
          // A signature on the first answer part after thinking belongs to that thinking.
          if (part.thoughtSignature && this.sequencer.flowingKind === 'reasoning' && !this.pendingThoughtSignature)
            this.pendingThoughtSignature = part.thoughtSignature;
          parts.push(...this.endReasoning());
          if (part.text) parts.push(...this.sequencer.text(part.text));
        }
      }
    }
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    const blockReason = chunk.promptFeedback?.blockReason;
    if (candidate?.finishReason) {
      parts.push(
        ...this.finish(mapGeminiFinishReason(candidate.finishReason, this.toolCallCount > 0), candidate.finishReason),
      );
    } else if (blockReason && !candidate) {
      parts.push(...this.finish('content-filter', blockReason));
    }
    return parts;
  }

  private finish(
    reason: Extract<CanonicalStreamPart, { type: 'finish' }>['finish']['reason'],
    rawReason: string,
  ): CanonicalStreamPart[] {
    const parts = [...this.endReasoning(), ...this.sequencer.endAll()];
    if (this.usage) parts.push({ type: 'usage', usage: parseGeminiUsage(this.usage) });
    parts.push({ type: 'finish', finish: { reason, rawReason } });
    return parts;
  }

  /** Ends an open reasoning block with the thought signature seen for it. */
  private endReasoning(): CanonicalStreamPart[] {
    if (this.sequencer.flowingKind !== 'reasoning') return [];
    const signature = this.pendingThoughtSignature;
    this.pendingThoughtSignature = undefined;
    const artefact: VendorArtefact | undefined = signature
      ? { producer: geminiArtefactProducer, signature }
      : undefined;
    return this.sequencer.endFlowing(artefact);
  }
}
