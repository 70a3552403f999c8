/** Bytes of one MPEG-1 Layer III frame at 128 kbit/s and 48 kHz: 144 × 128,000 / 48,000, no padding. */
const frameBytes = 384;
/** Samples per MPEG-1 Layer III frame. */
const samplesPerFrame = 1_152;
const sampleRate = 48_000;
/** Frame header: sync, MPEG-1, Layer III, no CRC; 128 kbit/s, 48 kHz, no padding; mono. */
const frameHeader = [0xff, 0xfb, 0x94, 0xc0];

/**
 * A silent constant-bitrate MP3 of `seconds` (rounded to whole 24 ms frames): a compressed upload the gateway cannot
 * measure, so its hold uses the bytes-based ceiling (at 16 kB a second, 8 × what this file really holds).
 */
export function createMp3(seconds: number): Buffer {
  const frames = Math.round((seconds * sampleRate) / samplesPerFrame);
  const file = Buffer.alloc(frames * frameBytes);
  for (let frame = 0; frame < frames; frame++) Buffer.from(frameHeader).copy(file, frame * frameBytes);
  return file;
}
