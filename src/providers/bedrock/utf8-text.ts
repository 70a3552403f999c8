// Node's Buffer does what @smithy/util-utf8 does; that package now loads @smithy/core with it (1.46 MB of heap kept
// alive from the start), which gateways without Bedrock channels should not pay.

/** The text of UTF-8 bytes (a view of them, not a copy). */
export function textOfUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** The UTF-8 bytes of a text. */
export function utf8OfText(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}
