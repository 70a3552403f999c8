import { describe, expect, it } from 'vitest';
import { isPlainDataChunk } from './is-plain-data-chunk.js';

const chunk = (text: string): Buffer => Buffer.from(text);
const contentEvent = (text: string): string => `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}}}],"usage":null}\n\n`;

describe('isPlainDataChunk', () => {
  it('accepts whole single-line data events, one or several, with "usage":null', () => {
    expect(isPlainDataChunk(chunk(contentEvent('Hello')))).toBe(true);
    expect(isPlainDataChunk(chunk(contentEvent('Hello') + contentEvent(' wörld 🎉')))).toBe(true);
    expect(isPlainDataChunk(chunk('data: {"choices":[],"usage" : null}\n\n'))).toBe(true);
  });

  it('accepts a "usage" that is text inside a string (escaped quotes)', () => {
    expect(isPlainDataChunk(chunk(contentEvent('say "usage": {"a":1}')))).toBe(true);
  });

  it('refuses what the relay must act on: [DONE], errors, usage objects', () => {
    expect(isPlainDataChunk(chunk('data: [DONE]\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk(contentEvent('a') + 'data: [DONE]\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('data: {"error":{"message":"overloaded"}}\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('data: {"choices":[],"usage":{"prompt_tokens":3}}\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk(`${contentEvent('a')}data: {"choices":[],"usage":\t{"prompt_tokens":3}}\n\n`))).toBe(false);
  });

  it('refuses anything but whole `data: ` lines ending in a blank line', () => {
    expect(isPlainDataChunk(chunk(contentEvent('a').slice(0, -1)))).toBe(false);
    expect(isPlainDataChunk(chunk(contentEvent('a').slice(0, 30)))).toBe(false);
    expect(isPlainDataChunk(chunk('data:{"choices":[]}\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('event: message\ndata: {"choices":[]}\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk(': keep-alive\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('data: {"a":\ndata: 1}\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('data: {"choices":[]}\r\n\r\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('id: 7\ndata: {"choices":[]}\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('data: "text"\n\n'))).toBe(false);
    expect(isPlainDataChunk(chunk('\n\n'))).toBe(false);
  });
});
