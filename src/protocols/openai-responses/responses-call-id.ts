import { createHash } from 'node:crypto';
import type { AnswerToolCallBlock } from '../../core/canonical/canonical-answer.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import type { SealedArtefact } from '../shared/reasoning-sealer.js';
import type { UnsealReasoning } from './unseal-reasoning.js';
import type { ResponseEncodingContext } from './response-encoding-context.js';

/** Starts the artefact part of a shown call id: `<callId>__gsig<seal length>_<seal><signature>`. */
const artefactMarker = '__gsig';

/** What OpenAI accepts as a `call_id`; the gateway's own ids that carry an artefact are the only longer ones. */
export const plainCallIdMaxLength = 64;

/** Bounds a gateway call id with its artefact (Gemini 3 signatures run to a few kilobytes). */
export const carryingCallIdMaxLength = 16_384;

/** Producers that can be written into an id and read back unambiguously. */
const idSafeProducer = /^[a-z0-9]+$/;

/** A Responses call id read back: the vendor's call id and the artefact it carried, if it carried one intact. */
export interface ResponsesCallIdParts {
  callId: string;
  artefact?: VendorArtefact;
}

/**
 * The `call_id` a Responses client is shown for a vendor's tool call. Clients that do not ask for
 * `include: ['reasoning.encrypted_content']` (the AI SDK, LangChain, the Agents SDK by default) send back only the
 * function call, so the call's vendor artefact (Gemini's `thoughtSignature`, without which Gemini 3 refuses the next
 * turn) rides in its id: the signature as base64url, bound to the call id and its producer by a gateway seal over a
 * digest of the three (the seal stays ~200 characters however long the signature is). Only id-safe characters
 * (`[A-Za-z0-9_-]`) are used, so the id may be replayed to any vendor. A signature that is not canonical base64, or
 * an artefact with redacted data, is not carried: the id stays plain.
 */
export function encodeResponsesCallId(
  callId: string,
  artefact: VendorArtefact | undefined,
  seal: (sealed: SealedArtefact) => string,
): string {
  const signature = artefact?.signature;
  if (!artefact || !signature || artefact.redactedData !== undefined || !idSafeProducer.test(artefact.producer))
    return callId;
  const urlSafeSignature = Buffer.from(signature, 'base64').toString('base64url');
  if (!urlSafeSignature || standardBase64Of(urlSafeSignature) !== signature) return callId;
  const bound = { producer: artefact.producer, signature: bindingDigestOf(artefact.producer, callId, signature) };
  const urlSafeSeal = Buffer.from(seal({ artefact: bound }), 'utf8').toString('base64url');
  return `${callId}${artefactMarker}${urlSafeSeal.length}_${urlSafeSeal}${urlSafeSignature}`;
}

/**
 * Splits an id made by encodeResponsesCallId into the vendor's call id and its artefact. An id without the marker,
 * or whose seal does not open with this gateway's key or does not match the id (foreign, garbled, edited), is kept
 * whole and carries no artefact.
 */
export function decodeResponsesCallId(shownId: string, unseal: UnsealReasoning | undefined): ResponsesCallIdParts {
  const markerIndex = shownId.indexOf(artefactMarker);
  if (markerIndex <= 0 || !unseal) return { callId: shownId };
  const rest = shownId.slice(markerIndex + artefactMarker.length);
  const lengthEnd = rest.indexOf('_');
  const sealLength = Number(rest.slice(0, lengthEnd));
  if (lengthEnd <= 0 || !Number.isSafeInteger(sealLength) || sealLength <= 0) return { callId: shownId };
  const urlSafeSeal = rest.slice(lengthEnd + 1, lengthEnd + 1 + sealLength);
  const urlSafeSignature = rest.slice(lengthEnd + 1 + sealLength);
  if (urlSafeSeal.length !== sealLength || !urlSafeSignature) return { callId: shownId };
  const opened = unseal(Buffer.from(urlSafeSeal, 'base64url').toString('utf8'));
  const callId = shownId.slice(0, markerIndex);
  const signature = standardBase64Of(urlSafeSignature);
  if (
    !opened ||
    opened.callId !== undefined ||
    opened.artefact.signature !== bindingDigestOf(opened.artefact.producer, callId, signature)
  )
    return { callId: shownId };
  return { callId, artefact: { producer: opened.artefact.producer, signature } };
}

/** 128 bits of SHA-256 over producer, call id and signature: what the seal vouches for. */
function bindingDigestOf(producer: string, callId: string, signature: string): string {
  return createHash('sha256')
    .update(`responses-call-id\u0000${producer}\u0000${callId}\u0000${signature}`)
    .digest('base64url')
    .slice(0, 22);
}

/** base64url without padding → standard, padded base64 (how vendors send signatures). */
function standardBase64Of(urlSafe: string): string {
  const standard = urlSafe.replaceAll('-', '+').replaceAll('_', '/');
  return standard + '='.repeat((4 - (standard.length % 4)) % 4);
}

/**
 * The `call_id` a finished tool call is shown with: the vendor's own when its artefact goes out in a reasoning item
 * (the client asked for encrypted content) or there is no seal to bind it, else one that carries the artefact.
 */
export function responsesCallIdOf(
  block: AnswerToolCallBlock,
  context: Pick<ResponseEncodingContext, 'sealReasoning' | 'sealToolCallArtefact'>,
): string {
  if (context.sealReasoning || !context.sealToolCallArtefact) return block.callId;
  return encodeResponsesCallId(block.callId, block.artefact, context.sealToolCallArtefact);
}

/** Whether an id has the form encodeResponsesCallId gives a carrying id (not whether its seal opens). */
export function isCarryingCallId(shownId: string): boolean {
  return shownId.indexOf(artefactMarker) > 0;
}

/**
 * The vendor's call id a carrying id starts with (an id without the marker as it is), for a channel that is given
 * no artefact: an OpenAI Responses pass-through, which refuses ids over 64 characters. The seal is not checked: a
 * call and its output are cut alike, so they stay tied.
 */
export function plainCallIdOf(shownId: string): string {
  const markerIndex = shownId.indexOf(artefactMarker);
  return markerIndex > 0 ? shownId.slice(0, markerIndex) : shownId;
}
