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

/** Seals vendor artefacts into Responses' `encrypted_content` and opens them again on replay. */
export interface ReasoningSealer {
  seal(artefact: VendorArtefact): string;
  /** the artefact, or null when the blob is not one this gateway sealed intact (it is then dropped, never forwarded) */
  unseal(sealed: string): VendorArtefact | null;
}

/** Marks the plain text so that other secrets sealed with the same key are never taken for an artefact. */
const artefactPrefix = 'reasoning-artefact:';

const artefactSchema = z.object({
  producer: z.string().min(1),
  signature: z.string().optional(),
  redactedData: z.string().optional(),
});

/** A sealer over the given cipher. */
export function createReasoningSealer(cipher: ArtefactCipher): ReasoningSealer {
  return {
    seal(artefact) {
      return cipher.encrypt(artefactPrefix + JSON.stringify(artefact));
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
        const parsed = artefactSchema.safeParse(JSON.parse(plainText.slice(artefactPrefix.length)));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
