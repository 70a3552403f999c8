/** An embedding as OpenAI's `encoding_format: base64` sends it: the vector's little-endian Float32 bytes, base64. */
export function encodeFloat32Base64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
