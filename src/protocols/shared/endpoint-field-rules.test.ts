import { describe, expect, it } from 'vitest';
import { vendorPresets } from '../../routing/vendor-presets.js';
import { chatCompletionFieldRules } from '../openai-chat/chat-completion-request-schema.js';
import { completionFieldRules } from '../openai-endpoints/completion-request-schema.js';
import { embeddingFieldRules } from '../openai-endpoints/embedding-request-schema.js';
import { imageEditFieldRules, imageGenerationFieldRules } from '../openai-endpoints/image-request-schemas.js';
import { transcriptionFieldNames } from '../openai-endpoints/transcription-request-schema.js';
import { vendorExtraFieldSchemas } from './vendor-extra-field-schemas.js';

// The property names of each request in the official OpenAI API description (openai-openapi.yaml), so that a field
// added to or dropped from a schema by mistake shows up here.
const describedFields = {
  chat: [
    'audio',
    'frequency_penalty',
    'function_call',
    'functions',
    'logit_bias',
    'logprobs',
    'max_completion_tokens',
    'max_tokens',
    'messages',
    'metadata',
    'modalities',
    'model',
    'moderation',
    'n',
    'parallel_tool_calls',
    'prediction',
    'presence_penalty',
    'prompt_cache_key',
    'prompt_cache_options',
    'prompt_cache_retention',
    'reasoning_effort',
    'response_format',
    'safety_identifier',
    'seed',
    'service_tier',
    'stop',
    'store',
    'stream',
    'stream_options',
    'temperature',
    'tool_choice',
    'tools',
    'top_logprobs',
    'top_p',
    'user',
    'verbosity',
    'web_search_options',
  ],
  completions: [
    'best_of',
    'echo',
    'frequency_penalty',
    'logit_bias',
    'logprobs',
    'max_tokens',
    'model',
    'n',
    'presence_penalty',
    'prompt',
    'seed',
    'stop',
    'stream',
    'stream_options',
    'suffix',
    'temperature',
    'top_p',
    'user',
  ],
  embeddings: ['dimensions', 'encoding_format', 'input', 'model', 'user'],
  imageGenerations: [
    'background',
    'model',
    'moderation',
    'n',
    'output_compression',
    'output_format',
    'partial_images',
    'prompt',
    'quality',
    'response_format',
    'size',
    'stream',
    'style',
    'user',
  ],
  imageEdits: [
    'background',
    'input_fidelity',
    'model',
    'n',
    'output_compression',
    'output_format',
    'partial_images',
    'prompt',
    'quality',
    'response_format',
    'size',
    'stream',
    'user',
  ],
  transcriptions: [
    'chunking_strategy',
    'file',
    'include',
    'keywords',
    'known_speaker_names',
    'known_speaker_references',
    'language',
    'languages',
    'model',
    'prompt',
    'response_format',
    'stream',
    'temperature',
    'timestamp_granularities',
  ],
};

describe('the forwarded-field allow-lists', () => {
  it.each([
    ['chat', chatCompletionFieldRules.officialFields],
    ['completions', completionFieldRules.officialFields],
    ['embeddings', embeddingFieldRules.officialFields],
    ['imageGenerations', imageGenerationFieldRules.officialFields],
    ['imageEdits', imageEditFieldRules.officialFields],
    ['transcriptions', transcriptionFieldNames],
  ] as const)('of %s are exactly the fields of the official description', (endpoint, fields) => {
    expect([...fields].sort()).toEqual(describedFields[endpoint]);
  });

  it('name premium and opt-in fields that the description defines', () => {
    for (const rules of [
      chatCompletionFieldRules,
      completionFieldRules,
      embeddingFieldRules,
      imageGenerationFieldRules,
      imageEditFieldRules,
    ]) {
      for (const field of [...Object.keys(rules.premiumFields), ...rules.optInFields])
        expect(rules.officialFields.has(field)).toBe(true);
    }
  });

  it('give every vendor extra a preset may list a type and range, and never shadow an official field', () => {
    for (const preset of vendorPresets) {
      for (const field of [...(preset.extraFields ?? []), ...(preset.premiumFields ?? [])]) {
        expect(Object.keys(vendorExtraFieldSchemas), `${preset.name}: ${field}`).toContain(field);
        expect(chatCompletionFieldRules.officialFields.has(field), field).toBe(false);
      }
    }
  });
});
