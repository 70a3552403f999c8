import { describe, expect, it } from 'vitest';
import { StreamTextDecoder } from './stream-text-decoder.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('StreamTextDecoder', () => {
  it('keeps a character split across chunks whole', () => {
    const euro = bytes('a€b'); // € is three bytes
    const decoder = new StreamTextDecoder();
    expect([decoder.decode(euro.subarray(0, 2)), decoder.decode(euro.subarray(2)), decoder.end()].join('|')).toBe(
      'a|€b|',
    );
  });

  it('drops a byte order mark at the start only, even when it arrives a byte at a time', () => {
    const text = bytes('\uFEFFdata: x\n\n\uFEFF');
    const decoder = new StreamTextDecoder();
    const parts = [...text].map((byte) => decoder.decode(Uint8Array.of(byte)));
    expect(parts.join('') + decoder.end()).toBe('data: x\n\n\uFEFF');
  });

  it('decodes what TextDecoder decodes, a character cut at the end becoming U+FFFD', () => {
    const cut = bytes('héllo €').subarray(0, -1);
    const decoder = new StreamTextDecoder();
    expect(decoder.decode(cut) + decoder.end()).toBe(new TextDecoder().decode(cut));
  });
});
