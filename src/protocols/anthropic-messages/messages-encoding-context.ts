import type { SealedArtefact } from '../shared/reasoning-sealer.js';

/** What encoding a Message needs beside the answer. */
export interface MessagesEncodingContext {
  /** the gateway's `msg_...` id (never the vendor's) */
  messageId: string;
  /** the public model id the client asked for */
  model: string;
  /**
   * Seals a vendor artefact into a thinking `signature` (or `redacted_thinking.data`), so that it comes back intact
   * on the next turn and is recognised as the gateway's (a tool call's artefact is sealed with the `tool_use` id it
   * belongs to); without it thinking blocks carry an empty signature and tool call artefacts are not shown.
   */
  sealArtefact?: (sealed: SealedArtefact) => string;
  /** the Messages field a refused reasoning effort is named by (ParsedMessagesRequest.effortParam); `thinking` when absent */
  effortParam?: 'thinking' | 'output_config.effort';
}
