import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCappedUpstreamText } from './read-capped-upstream-text.js';

describe('readCappedUpstreamText', () => {
  it('reads a body up to the cap whole, multi-byte characters split across chunks included', async () => {
    const euro = Buffer.from('€');
    const body = Readable.from([Buffer.from('price '), euro.subarray(0, 1), euro.subarray(1)]);
    expect(await readCappedUpstreamText(body, 64)).toEqual({ kind: 'text', text: 'price €' });
  });

  it('stops reading a body that grows past the cap and discards it, even one that never ends', async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.alloc(60, 'a'));
    body.push(Buffer.alloc(60, 'b'));
    expect(await readCappedUpstreamText(body, 100)).toEqual({ kind: 'too-large' });
    expect(body.destroyed).toBe(true);
  });

  it('refuses a body whose declared length is over the cap without reading it', async () => {
    const body = new Readable({ read() {} });
    expect(await readCappedUpstreamText(body, 100, '101')).toEqual({ kind: 'too-large' });
    expect(body.destroyed).toBe(true);
  });

  it('rejects when the body fails', async () => {
    const body = new Readable({ read() {} });
    setImmediate(() => body.destroy(new Error('socket hang up')));
    await expect(readCappedUpstreamText(body, 100)).rejects.toThrow('socket hang up');
  });
});
