import { describe, expect, it } from 'vitest';
import {
  parseBatchEmbedContentsRequest,
  parseEmbedContentRequest,
  toGeminiEmbeddingAnswer,
} from './gemini-embedding-request.js';

describe('Gemini embedding requests', () => {
  it('takes one input text per content (its text parts joined) and the output dimensionality', () => {
    expect(
      parseBatchEmbedContentsRequest({
        requests: [
          { model: 'models/e', content: { parts: [{ text: 'a' }, { text: 'b' }] }, outputDimensionality: 8 },
          { model: 'models/e', content: { parts: [{ text: 'c' }] }, outputDimensionality: 8 },
        ],
      }),
    ).toEqual({ input: ['a\nb', 'c'], dimensions: 8 });
    expect(parseEmbedContentRequest({ content: { parts: [{ text: 'x' }] } })).toEqual({ input: ['x'] });
  });

  it('refuses what other vendors cannot honour: task types, titles, non-text parts', () => {
    expect(() =>
      parseEmbedContentRequest({ content: { parts: [{ text: 'x' }] }, taskType: 'RETRIEVAL_QUERY' }),
    ).toThrow(/taskType/);
    expect(() =>
      parseEmbedContentRequest({ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA' } }] } }),
    ).toThrow(/Only text parts/);
  });

  it('writes the embedding list in Gemini’s shape, in input order; other bodies are left alone', () => {
    const list = JSON.stringify({
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: [0.3] },
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
      ],
    });
    expect(JSON.parse(toGeminiEmbeddingAnswer(list, true) ?? '')).toEqual({
      embeddings: [{ values: [0.1, 0.2] }, { values: [0.3] }],
    });
    expect(JSON.parse(toGeminiEmbeddingAnswer(list, false) ?? '')).toEqual({ embedding: { values: [0.1, 0.2] } });
    expect(toGeminiEmbeddingAnswer('{"error":{"code":400}}', true)).toBeUndefined();
  });
});
