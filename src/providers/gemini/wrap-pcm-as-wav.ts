/** What Gemini TTS answers: signed 16-bit little-endian PCM, mono, 24 kHz. */
export const geminiPcmFormat = { sampleRate: 24_000, channels: 1, bitsPerSample: 16 } as const;

/** Bytes of a canonical WAV header (RIFF, `fmt ` of 16 bytes, `data`). */
const wavHeaderBytes = 44;

/**
 * Wraps raw PCM in a WAV (RIFF) container: the 44-byte canonical header, then the samples unchanged. A WAV needs no
 * encoder, so the gateway can answer `response_format: "wav"` for a vendor that speaks PCM only.
 */
export function wrapPcmAsWav(
  pcm: Uint8Array,
  format: { sampleRate: number; channels: number; bitsPerSample: number } = geminiPcmFormat,
): Buffer {
  const blockAlign = (format.channels * format.bitsPerSample) / 8;
  const wav = Buffer.alloc(wavHeaderBytes + pcm.length);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(wavHeaderBytes - 8 + pcm.length, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(format.channels, 22);
  wav.writeUInt32LE(format.sampleRate, 24);
  wav.writeUInt32LE(format.sampleRate * blockAlign, 28);
  wav.writeUInt16LE(blockAlign, 32);
  wav.writeUInt16LE(format.bitsPerSample, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(pcm.length, 40);
  wav.set(pcm, wavHeaderBytes);
  return wav;
}
