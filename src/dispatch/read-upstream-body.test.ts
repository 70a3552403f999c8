import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readUpstreamBody } from './read-upstream-body.js';

const later = <Value>(value: Value): Promise<Value> => new Promise((resolve) => setTimeout(() => resolve(value), 20));

describe('readUpstreamBody', () => {
  it('hands every chunk over in order and reports the end', async () => {
    const seen: string[] = [];
    const ending = await readUpstreamBody(Readable.from([Buffer.from('a'), Buffer.from('b')]), (bytes) => {
      seen.push(bytes.toString());
      return 'continue';
    });
    expect({ ending, seen }).toEqual({ ending: 'ended', seen: ['a', 'b'] });
  });

  it('waits for a pending verdict before reporting the end of the body it was given the last chunk of', async () => {
    const order: string[] = [];
    const reading = readUpstreamBody(Readable.from([Buffer.from('last')]), () =>
      later('continue' as const).finally(() => order.push('verdict')),
    );
    expect(await reading.finally(() => order.push('settled'))).toBe('ended');
    expect(order).toEqual(['verdict', 'settled']);
  });

  it('stops on a pending verdict of stop even when the body ended meanwhile, leaving the body to the caller', async () => {
    const body = Readable.from([Buffer.from('last')]);
    expect(await readUpstreamBody(body, () => later('stop' as const))).toBe('stopped');
  });

  it('rejects when the body fails', async () => {
    const body = new Readable({ read() {} });
    const reading = readUpstreamBody(body, () => 'continue');
    body.destroy(new Error('connection reset'));
    await expect(reading).rejects.toThrow('connection reset');
  });
});
