/**
 * What a vendor attached to a reasoning block or a tool call so that it accepts the block back on the next turn:
 * Anthropic's thinking `signature` or `redacted_thinking` data, Gemini's `thoughtSignature`. It may only ever be
 * sent back to the vendor family named in `producer`; every other vendor gets the block without it (or not at all).
 */
export interface VendorArtefact {
  /** the vendor protocol family that produced it, e.g. `anthropic`, `gemini` */
  producer: string;
  /** the opaque signature the vendor checks on replay */
  signature?: string;
  /** reasoning the vendor returned encrypted only (Anthropic `redacted_thinking.data`) */
  redactedData?: string;
}
