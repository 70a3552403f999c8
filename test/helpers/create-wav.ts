/**
 * A mono 16-bit PCM WAV of `seconds`: a RIFF header, a `fmt ` chunk and a `data` chunk, silent or holding a quiet
 * sine tone of `toneHz`.
 */
export function createWav(seconds: number, options: { sampleRate?: number; toneHz?: number } = {}): Buffer {
  const sampleRate = options.sampleRate ?? 8000;
  const sampleCount = Math.round(seconds * sampleRate);
  const samples = Buffer.alloc(sampleCount * 2);
  if (options.toneHz !== undefined) {
    for (let index = 0; index < sampleCount; index++)
      samples.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * options.toneHz * index) / sampleRate)), index * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}
