import { describe, expect, it } from 'vitest';
import { readWavDurationSeconds } from './read-wav-duration.js';

function wav(seconds: number, sampleRate = 8000): Buffer {
  const dataBytes = seconds * sampleRate * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}

describe('readWavDurationSeconds', () => {
  it('reads the duration of PCM WAV files', () => {
    expect(readWavDurationSeconds(wav(3))).toBe(3);
  });

  it('returns undefined for other formats and truncated headers', () => {
    expect(readWavDurationSeconds(Buffer.from('ID3 not a wav file at all'))).toBeUndefined();
    expect(readWavDurationSeconds(wav(1).subarray(0, 20))).toBeUndefined();
  });
});
