import { z } from 'zod';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';

/**
 * Authenticated encryption with the gateway's secret (the accounts layer's SecretBox fits this shape; it is passed
 * in because protocols may not import accounts).
 */
export interface ArtefactCipher {
  encrypt(plainText: string): string;
  /** throws when the text was not sealed with this gateway's key or was altered */
  decrypt(sealed: string): string;
}

/**
 * What one seal holds: a vendor artefact and, when it belongs to a tool call (Gemini's `thoughtSignature` on a
 * functionCall), the id of that call, so that the client protocol can attach it back to the call on replay.
 */
export interface SealedArtefact {
  artefact: VendorArtefact;
  /** the tool call the artefact belongs to; absent for a reasoning block's own artefact */
  callId?: string;
}

/** Seals vendor artefacts into Responses' `encrypted_content` (or a Messages thinking `signature`) and opens them again on replay. */
export interface ReasoningSealer {
  seal(sealed: SealedArtefact): string;
  /** what was sealed, or null when the blob is not one this gateway sealed intact (it is then dropped, never forwarded) */
  unseal(sealed: string): SealedArtefact | null;
}

/** Marks the plain text so that other secrets sealed with the same key are never taken for an artefact. */
const artefactPrefix = 'reasoning-artefact:';

/** The sealed JSON: the artefact's fields, plus `callId` for a tool call's artefact (blobs sealed before it have none). */
const payloadSchema = z.object({
  producer: z.string().min(1),
  signature: z.string().optional(),
  redactedData: z.string().optional(),
  callId: z.string().min(1).optional(),
});

/** A sealer over the given cipher. */
export function createReasoningSealer(cipher: ArtefactCipher): ReasoningSealer {
  return {
    seal({ artefact, callId }) {
      return cipher.encrypt(artefactPrefix + JSON.stringify(callId === undefined ? artefact : { ...artefact, callId }));
    },
    unseal(sealed) {
      let plainText: string;
      try {
        plainText = cipher.decrypt(sealed);
      } catch {
        return null;
      }
      if (!plainText.startsWith(artefactPrefix)) return null;
      try {
        const parsed = payloadSchema.safeParse(JSON.parse(plainText.slice(artefactPrefix.length)));
        if (!parsed.success) return null;
        const { callId, ...artefact } = parsed.data;
        return callId === undefined ? { artefact } : { artefact, callId };
      } catch {
        return null;
      }
    },
  };
}
