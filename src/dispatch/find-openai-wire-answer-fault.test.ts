import { describe, expect, it } from 'vitest';
import { findOpenAiWireAnswerFault } from './find-openai-wire-answer-fault.js';

const json = 'application/json';
const usage = { prompt_tokens: 4, total_tokens: 4 };
/** An embeddings answer over the 1 MiB full-check limit, so only the light check runs. */
function largeEmbeddings(fields: Record<string, unknown>): string {
  return JSON.stringify({ object: 'list', ...fields, filler: 'x'.repeat(1024 * 1024 + 10) });
}

describe('findOpenAiWireAnswerFault', () => {
  it('accepts the answers of each endpoint', () => {
    expect(
      findOpenAiWireAnswerFault('/chat/completions', json, JSON.stringify({ choices: [], usage })),
    ).toBeUndefined();
    expect(
      findOpenAiWireAnswerFault('/completions', json, JSON.stringify({ choices: [{ text: 'a' }], usage: null })),
    ).toBeUndefined();
    expect(
      findOpenAiWireAnswerFault('/embeddings', json, JSON.stringify({ data: [{ embedding: [0.1] }], usage })),
    ).toBeUndefined();
    expect(
      findOpenAiWireAnswerFault('/images/generations', json, JSON.stringify({ created: 1, data: [{ url: 'u' }] })),
    ).toBeUndefined();
    expect(findOpenAiWireAnswerFault('/audio/transcriptions', 'text/plain', 'hello there')).toBeUndefined();
  });

  it('names what is wrong with an answer that is not the endpoint shape', () => {
    expect(findOpenAiWireAnswerFault('/chat/completions', 'text/html; charset=utf-8', '<html></html>')).toBe('html');
    expect(findOpenAiWireAnswerFault('/audio/transcriptions', 'text/html', '<html></html>')).toBe('html');
    expect(findOpenAiWireAnswerFault('/chat/completions', json, ' <!DOCTYPE html>')).toBe('html');
    expect(findOpenAiWireAnswerFault('/chat/completions', json, '[]')).toBe('not-an-object');
    expect(findOpenAiWireAnswerFault('/chat/completions', json, '{"choices":[{"mess')).toBe('cut-off');
    expect(findOpenAiWireAnswerFault('/chat/completions', json, '{"choices":[}')).toBe('cut-off');
    expect(findOpenAiWireAnswerFault('/chat/completions', json, JSON.stringify({ id: 'x', usage }))).toBe('no-choices');
    expect(findOpenAiWireAnswerFault('/chat/completions', json, JSON.stringify({ choices: [], usage: 'lots' }))).toBe(
      'bad-usage',
    );
    expect(
      findOpenAiWireAnswerFault(
        '/chat/completions',
        json,
        JSON.stringify({ choices: [], usage: { prompt_tokens: '3' } }),
      ),
    ).toBe('bad-usage');
    expect(findOpenAiWireAnswerFault('/embeddings', json, JSON.stringify({ object: 'list', usage }))).toBe('no-data');
  });

  it('checks bodies over 1 MiB by their ends, the array key and the usage value only', () => {
    expect(
      findOpenAiWireAnswerFault('/embeddings', json, largeEmbeddings({ data: [{ embedding: [1] }], usage })),
    ).toBeUndefined();
    expect(findOpenAiWireAnswerFault('/embeddings', json, largeEmbeddings({ usage }))).toBe('no-data');
    expect(findOpenAiWireAnswerFault('/embeddings', json, largeEmbeddings({ data: [], usage: 'lots' }))).toBe(
      'bad-usage',
    );
    expect(findOpenAiWireAnswerFault('/embeddings', json, largeEmbeddings({ data: [], usage }).slice(0, -2))).toBe(
      'cut-off',
    );
  });
});
