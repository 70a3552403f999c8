import { describe, expect, it } from 'vitest';
import { createWav } from '../../test/helpers/create-wav.js';
import { readWavDurationSeconds } from './read-wav-duration.js';


describe('readWavDurationSeconds', () => {
  it('reads the duration of PCM WAV files', () => {
    expect(readWavDurationSeconds(createWav(3))).toBe(3);
  });

  it('returns undefined for other formats and truncated headers', () => {
    expect(readWavDurationSeconds(Buffer.from('ID3 not a wav file at all'))).toBeUndefined();
    expect(readWavDurationSeconds(createWav(1).subarray(0, 20))).toBeUndefined();
  });
});
