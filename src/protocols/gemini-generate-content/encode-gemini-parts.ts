import type { AnswerBlock } from '../../core/canonical/canonical-answer.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import type { GeminiEncodingContext } from './gemini-encoding-context.js';
import type { GeminiAnswerPart } from './gemini-wire-types.js';
import { geminiArtefactProducer } from './parse-gemini-request.js';

/**
 * The `thoughtSignature` for an artefact: Gemini's own signature as it came (a Gemini channel checks it, and parse
 * takes back any signature it did not seal as Gemini's), another vendor's sealed with the call it belongs to.
 */
export function thoughtSignatureOf(artefact: VendorArtefact, context: GeminiEncodingContext, callId?: string): string {
  if (artefact.producer === geminiArtefactProducer && artefact.signature !== undefined) return artefact.signature;
  return context.sealArtefact(callId === undefined ? { artefact } : { artefact, callId });
}

/**
 * Whether a reasoning block's text is shown: when the client asked for thoughts, and always for another vendor's
 * signed reasoning (Anthropic checks its signature against the thinking text, so a replay needs the text back).
 */
export function showsThoughtText(context: GeminiEncodingContext, artefact: VendorArtefact | undefined): boolean {
  return context.includeThoughts || (artefact !== undefined && artefact.producer !== geminiArtefactProducer);
}

/** One answer block as Gemini parts (none for hidden reasoning without a signature). */
export function encodeGeminiParts(block: AnswerBlock, context: GeminiEncodingContext): GeminiAnswerPart[] {
  switch (block.type) {
    case 'text':
      return [{ text: block.text }];
    case 'reasoning': {
      const signature = block.artefact ? thoughtSignatureOf(block.artefact, context) : undefined;
      const text = showsThoughtText(context, block.artefact) ? block.text : '';
      if (text.length === 0 && signature === undefined) return [];
      return [{ text, thought: true, ...(signature === undefined ? {} : { thoughtSignature: signature }) }];
    }
    case 'tool-call':
      return [
        {
          functionCall: { id: block.callId, name: block.name, args: parseArguments(block.arguments) },
          ...(block.artefact ? { thoughtSignature: thoughtSignatureOf(block.artefact, context, block.callId) } : {}),
        },
      ];
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The call's JSON arguments as Gemini's `args` object; anything but a JSON object (a cut stream) gives `{}`. */
function parseArguments(argumentsJson: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsJson || '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
