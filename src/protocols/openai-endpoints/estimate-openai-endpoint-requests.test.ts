import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import { estimateCompletionRequest } from './estimate-completion-request.js';
import { estimateEmbeddingRequest } from './estimate-embedding-request.js';
import { estimateImageRequest } from './estimate-image-request.js';
import { estimateTranscriptionRequest } from './estimate-transcription-request.js';

describe('estimateCompletionRequest', () => {
  it('counts a typical prompt and caps each completion at max_tokens', () => {
    expect(estimateCompletionRequest({ prompt: 'Say hello', max_tokens: 10 })).toEqual({
      inputTokens: estimateTextTokens('Say hello'),
      inlinePdfs: [],
      outputTokenCap: 10,
      generations: 1,
      requestedImages: undefined,
      transcriptionPromptTokens: 0,
    });
  });

  it.each([
    { case: 'n completions', fields: { prompt: 'hi', n: 2 }, generations: 2 },
    { case: 'best_of candidates are generated server-side', fields: { prompt: 'hi', best_of: 5 }, generations: 5 },
    { case: 'best_of with n: best_of candidates', fields: { prompt: 'hi', n: 2, best_of: 4 }, generations: 4 },
    { case: 'each prompt of a batch', fields: { prompt: ['a', 'b', 'c'], best_of: 2 }, generations: 6 },
    { case: 'a batch of token lists', fields: { prompt: [[1, 2], [3]], n: 2 }, generations: 4 },
    { case: 'a prompt of token ids is one prompt', fields: { prompt: [1, 2, 3] }, generations: 1 },
  ])('generations: $case', ({ fields, generations }) => {
    expect(estimateCompletionRequest(fields).generations).toBe(generations);
  });

  it('counts strings by length, token ids one each and token lists by their length', () => {
    expect(estimateCompletionRequest({ prompt: ['one two', 'three'] }).inputTokens).toBe(
      estimateTextTokens('one two') + estimateTextTokens('three'),
    );
    expect(estimateCompletionRequest({ prompt: [1, 2, 3] }).inputTokens).toBe(3);
    expect(estimateCompletionRequest({ prompt: [[1, 2], [3]] }).inputTokens).toBe(3);
  });
});

describe('estimateEmbeddingRequest', () => {
  it('counts the input, generates nothing', () => {
    expect(estimateEmbeddingRequest({ input: ['one two', 'three'] })).toMatchObject({
      inputTokens: estimateTextTokens('one two') + estimateTextTokens('three'),
      outputTokenCap: undefined,
      requestedImages: undefined,
    });
    expect(estimateEmbeddingRequest({ input: [[1, 2, 3, 4]] }).inputTokens).toBe(4);
  });
});

describe('estimateImageRequest', () => {
  it('asks for n images of the size and quality given, and counts the prompt', () => {
    expect(estimateImageRequest({ prompt: 'a cat', n: 3, size: '1024x1024', quality: 'hd' })).toMatchObject({
      inputTokens: estimateTextTokens('a cat'),
      requestedImages: { image: { size: '1024x1024', quality: 'hd' }, count: 3 },
    });
  });

  it('asks for one image of the vendor’s default size and quality without them', () => {
    expect(estimateImageRequest({ prompt: 'a cat', n: null, size: null }).requestedImages).toEqual({
      image: { size: undefined, quality: undefined },
      count: 1,
    });
  });
});

describe('estimateTranscriptionRequest', () => {
  it('counts the prompt’s tokens apart (the audio is held by the upload)', () => {
    expect(estimateTranscriptionRequest({ prompt: 'names: Ada' })).toMatchObject({
      inputTokens: 0,
      transcriptionPromptTokens: estimateTextTokens('names: Ada'),
    });
    expect(estimateTranscriptionRequest({}).transcriptionPromptTokens).toBe(0);
  });
});
