import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';

/** Starts the artefact part of a shown id: `<callId>__sig_<producer>_<signature, base64url>`. */
const artefactMarker = '__sig_';

/** The form before artefacts were generic: `<callId>__ts__<signature, base64url>`, always Gemini's. */
const legacyGeminiMarker = '__ts__';

/** Producers that can be written into an id and read back unambiguously (the producer ends at the next `_`). */
const idSafeProducer = /^[a-z0-9]+$/;

/** A chat tool call id read back: the vendor's call id and the artefact the shown id carried, if any. */
export interface ChatToolCallIdParts {
  callId: string;
  artefact?: VendorArtefact;
}

/**
 * The tool call id a chat client is shown. Chat has no place for a tool call's vendor artefact (Gemini's
 * `thoughtSignature`), and clients send ids back unchanged while extra fields get lost, so the id carries it:
 * `<callId>__sig_<producer>_<signature as base64url>` (URL-safe characters only). A signature that is not canonical
 * base64 (so would not come back byte for byte) or an artefact with redacted data is not carried: the id stays plain.
 */
export function encodeChatToolCallId(callId: string, artefact: VendorArtefact | undefined): string {
  const signature = artefact?.signature;
  if (!artefact || !signature || artefact.redactedData !== undefined || !idSafeProducer.test(artefact.producer))
    return callId;
  const urlSafe = Buffer.from(signature, 'base64').toString('base64url');
  if (!urlSafe || standardBase64Of(urlSafe) !== signature) return callId;
  return `${callId}${artefactMarker}${artefact.producer}_${urlSafe}`;
}

/** Splits an id made by encodeChatToolCallId (or the older Gemini-only form) into the call id and its artefact. */
export function decodeChatToolCallId(shownId: string): ChatToolCallIdParts {
  const markerIndex = shownId.indexOf(artefactMarker);
  if (markerIndex > 0) {
    const rest = shownId.slice(markerIndex + artefactMarker.length);
    const producerEnd = rest.indexOf('_');
    const producer = rest.slice(0, producerEnd);
    const urlSafe = rest.slice(producerEnd + 1);
    if (producerEnd > 0 && idSafeProducer.test(producer) && urlSafe) {
      return { callId: shownId.slice(0, markerIndex), artefact: { producer, signature: standardBase64Of(urlSafe) } };
    }
  }
  const legacyIndex = shownId.indexOf(legacyGeminiMarker);
  if (legacyIndex > 0 && legacyIndex + legacyGeminiMarker.length < shownId.length) {
    const urlSafe = shownId.slice(legacyIndex + legacyGeminiMarker.length);
    return {
      callId: shownId.slice(0, legacyIndex),
      artefact: { producer: 'gemini', signature: standardBase64Of(urlSafe) },
    };
  }
  return { callId: shownId };
}

/** base64url without padding → standard, padded base64 (how vendors send signatures). */
function standardBase64Of(urlSafe: string): string {
  const standard = urlSafe.replaceAll('-', '+').replaceAll('_', '/');
  return standard + '='.repeat((4 - (standard.length % 4)) % 4);
}
