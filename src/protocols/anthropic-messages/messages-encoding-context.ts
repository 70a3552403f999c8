import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';

/** What encoding a Message needs beside the answer. */
export interface MessagesEncodingContext {
  /** the gateway's `msg_...` id (never the vendor's) */
  messageId: string;
  /** the public model id the client asked for */
  model: string;
  /**
   * Seals a vendor artefact into a thinking `signature` (or `redacted_thinking.data`), so that it comes back intact
   * on the next turn and is recognised as the gateway's; without it thinking blocks carry an empty signature.
   */
  sealArtefact?: (artefact: VendorArtefact) => string;
}
