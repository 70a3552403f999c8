/** MPEG-1 Layer III bit rates in kbit/s by the header's index (0 = free format, 15 = invalid). */
const bitRates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
/** MPEG-1 sample rates in Hz by the header's index (3 = reserved). */
const sampleRates = [44_100, 48_000, 32_000, 0];
const samplesPerFrame = 1_152;

/**
 * Duration of an MPEG-1 Layer III file as a decoder plays it: its frames counted from the first header (after an ID3v2
 * tag, if any) × 1,152 samples over the sample rate. Undefined when the file does not start with such a frame, so the
 * simulator's answer for other formats stays its default.
 */
export function mp3DurationSeconds(content: Buffer): number | undefined {
  let offset = content.length >= 10 && content.toString('latin1', 0, 3) === 'ID3' ? 10 + id3TagSize(content) : 0;
  let frames = 0;
  let rate = 0;
  while (offset + 4 <= content.length) {
    const frameBytes = mpegOneLayerThreeFrameBytes(content, offset);
    if (frameBytes === undefined) break;
    rate = sampleRates[(content[offset + 2]! >> 2) & 0b11]!;
    frames++;
    offset += frameBytes;
  }
  return frames > 0 ? (frames * samplesPerFrame) / rate : undefined;
}

function id3TagSize(content: Buffer): number {
  // A syncsafe integer: four bytes of seven bits each.
  return (
    ((content[6]! & 0x7f) << 21) | ((content[7]! & 0x7f) << 14) | ((content[8]! & 0x7f) << 7) | (content[9]! & 0x7f)
  );
}

/** The length of the MPEG-1 Layer III frame whose header starts at `offset`, or undefined if none starts there. */
function mpegOneLayerThreeFrameBytes(content: Buffer, offset: number): number | undefined {
  if (content[offset] !== 0xff || (content[offset + 1]! & 0xfe) !== 0xfa) return undefined;
  const bitRate = bitRates[content[offset + 2]! >> 4]!;
  const sampleRate = sampleRates[(content[offset + 2]! >> 2) & 0b11]!;
  if (bitRate === 0 || sampleRate === 0) return undefined;
  const padding = (content[offset + 2]! >> 1) & 1;
  return Math.floor((144 * bitRate * 1000) / sampleRate) + padding;
}
