import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { pageGeminiModels, toGeminiModelObject } from './gemini-model-object.js';
import { geminiModelId, parseGeminiModelAction } from './gemini-model-path.js';

describe('Gemini model names', () => {
  it('reads `models/<id>` or `<id>` (ids may hold slashes) and the method after the last colon', () => {
    expect(parseGeminiModelAction('gemini-2.5-flash:streamGenerateContent')).toEqual({
      modelId: 'gemini-2.5-flash',
      method: 'streamGenerateContent',
    });
    expect(parseGeminiModelAction('meta/llama:3:countTokens')).toEqual({
      modelId: 'meta/llama:3',
      method: 'countTokens',
    });
    expect(geminiModelId('models/gemini-x')).toBe('gemini-x');
  });

  it('refuses tuned models and unknown methods with 404', () => {
    expect(() => geminiModelId('tunedModels/abc')).toThrow(GatewayError);
    expect(() => parseGeminiModelAction('gemini-x:predict')).toThrow(/Unknown method 'predict'/);
    expect(() => parseGeminiModelAction('gemini-x')).toThrow(GatewayError);
  });
});

describe('Gemini model list', () => {
  const models = [
    { id: 'chat-a', kind: 'chat', contextWindow: 1000, maxOutputTokens: 100, reasoning: true },
    { id: 'image-b', kind: 'image' },
    { id: 'embed-c', kind: 'embedding' },
  ];

  it('shows each model as Gemini’s Model with its token limits and generation methods', () => {
    expect(toGeminiModelObject(models[0] ?? { id: '', kind: '' })).toEqual({
      name: 'models/chat-a',
      baseModelId: 'chat-a',
      version: '001',
      displayName: 'chat-a',
      inputTokenLimit: 1000,
      outputTokenLimit: 100,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
      thinking: true,
    });
  });

  it('lists only models Gemini’s API can call, paged by pageSize and pageToken', () => {
    const first = pageGeminiModels(models, { pageSize: '1' });
    expect(first.models.map((model) => model.name)).toEqual(['models/chat-a']);
    expect(first.nextPageToken).toBe('1');
    const second = pageGeminiModels(models, { pageSize: '1', pageToken: first.nextPageToken });
    expect(second).toEqual({ models: [expect.objectContaining({ name: 'models/embed-c' })] });
  });
});
