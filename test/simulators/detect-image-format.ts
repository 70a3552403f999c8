// Which image format some bytes are, by their leading signature: the vendors decode inline images and refuse bytes
// that are not the image they claim to be, so the simulators do too.

/** An image format a vendor decodes. */
export type DetectedImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** The format the bytes start like, or undefined for anything else. */
export function detectImageFormat(bytes: Buffer): DetectedImageFormat | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return undefined;
}
