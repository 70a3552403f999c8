import { describe, expect, it } from 'vitest';
import { createWav } from '../../test/helpers/create-wav.js';
import { readWavDuration } from './read-wav-duration.js';

/** A WAV whose `fmt ` fields are overwritten (offsets of the 44-byte header createWav writes). */
function forgeWav(
  seconds: number,
  fields: {
    formatTag?: number;
    channels?: number;
    sampleRate?: number;
    byteRate?: number;
    bitsPerSample?: number;
    dataSize?: number;
  },
): Buffer {
  const wav = createWav(seconds);
  if (fields.formatTag !== undefined) wav.writeUInt16LE(fields.formatTag, 20);
  if (fields.channels !== undefined) wav.writeUInt16LE(fields.channels, 22);
  if (fields.sampleRate !== undefined) wav.writeUInt32LE(fields.sampleRate, 24);
  if (fields.byteRate !== undefined) wav.writeUInt32LE(fields.byteRate, 28);
  if (fields.bitsPerSample !== undefined) wav.writeUInt16LE(fields.bitsPerSample, 34);
  if (fields.dataSize !== undefined) wav.writeUInt32LE(fields.dataSize, 40);
  return wav;
}

describe('readWavDuration', () => {
  it('reads the duration of PCM WAV files', () => {
    expect(readWavDuration(createWav(3))).toEqual({ kind: 'measured', seconds: 3 });
  });

  it('ignores a byte rate that lies: the length follows sample rate, channels and bit depth', () => {
    expect(readWavDuration(forgeWav(2, { byteRate: 0xffffffff }))).toEqual({ kind: 'measured', seconds: 2 });
    expect(readWavDuration(forgeWav(2, { byteRate: 1 }))).toEqual({ kind: 'measured', seconds: 2 });
  });

  it('counts the bytes really uploaded, not the declared data size', () => {
    expect(readWavDuration(forgeWav(4, { dataSize: 2 }))).toEqual({ kind: 'measured', seconds: 4 });
    expect(readWavDuration(forgeWav(1, { dataSize: 0xfffffff0 }))).toEqual({ kind: 'measured', seconds: 1 });
  });

  it('decodes the length with the declared sample rate, channels and bit depth, as a player would', () => {
    // 8,000 Hz mono 16-bit data read as 16,000 Hz stereo plays a quarter as long: the vendor hears the same.
    expect(readWavDuration(forgeWav(2, { sampleRate: 16_000, channels: 2 }))).toEqual({
      kind: 'measured',
      seconds: 0.5,
    });
  });

  it.each([
    { case: 'a sample rate above 384 kHz', fields: { sampleRate: 4_000_000_000 }, field: 'sample rate' },
    { case: 'a sample rate below 8 kHz', fields: { sampleRate: 100 }, field: 'sample rate' },
    { case: 'no channels', fields: { channels: 0 }, field: 'channels' },
    { case: 'more than 8 channels', fields: { channels: 200 }, field: 'channels' },
    { case: 'an unusual bit depth', fields: { bitsPerSample: 1 }, field: 'bits per sample' },
  ])('reports a header with $case as implausible', ({ fields, field }) => {
    const measure = readWavDuration(forgeWav(1, fields));
    expect(measure.kind).toBe('implausible');
    expect(measure.kind === 'implausible' ? measure.reason : '').toContain(field);
  });

  it('leaves compressed WAV codecs and other formats to the bytes-based ceiling', () => {
    expect(readWavDuration(forgeWav(1, { formatTag: 0x55, bitsPerSample: 0 }))).toEqual({ kind: 'unmeasured' });
    expect(readWavDuration(Buffer.from('ID3 not a wav file at all'))).toEqual({ kind: 'unmeasured' });
    expect(readWavDuration(createWav(1).subarray(0, 20))).toEqual({ kind: 'unmeasured' });
  });
});
