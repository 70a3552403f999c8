import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatCompletionRequestSchema } from '../openai-chat/chat-completion-request-schema.js';
import { createSparseLooseObject } from './sparse-loose-object.js';

const user = { role: 'user', content: 'hi' };

/** Valid chat bodies that send many of the optional fields, nested ones included, and fields the schema does not know. */
const validChatBodies: Array<Record<string, unknown>> = [
  { model: 'm', messages: [user] },
  {
    model: 'm',
    messages: [{ role: 'system', content: 'be brief' }, user],
    temperature: 0.7,
    max_tokens: 64,
    stream: false,
  },
  {
    top_k: 40,
    service_tier: 'priority',
    stream: true,
    model: 'm',
    stream_options: { include_usage: true, future_flag: 1 },
    messages: [user],
  },
  {
    model: 'm',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get', arguments: '{}' } }],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'call_1' },
    ],
    tools: [
      {
        type: 'function',
        function: { name: 'get', description: 'reads', parameters: { type: 'object', properties: {} }, strict: true },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'get' } },
    parallel_tool_calls: false,
    response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
    logprobs: true,
    top_logprobs: 3,
    metadata: { team: 'search' },
    seed: 7,
    stop: ['\n'],
    logit_bias: { '50256': -100 },
    user: 'u-1',
    reasoning_effort: null,
    vendor_extra: { nested: [1, 2, 3] },
  },
];

describe('createSparseLooseObject with the chat schema', () => {
  it.each(validChatBodies.map((body) => [body]))(
    'returns what zod returns for a valid body, in its key order: %j',
    (body) => {
      const fast = chatCompletionRequestSchema.parseValid(body);
      const full = chatCompletionRequestSchema.full.parse(body);
      expect(fast).toEqual(full);
      // Which field a refusal names (the forwarded-field plan) follows the key order.
      expect(Object.keys(fast ?? {})).toEqual(Object.keys(full));
    },
  );

  it.each([
    [{ messages: [user] }],
    [{ model: 'm', messages: [user], temperature: 3 }],
    [{ model: 'm', messages: [user], tools: [{ type: 'function', function: {} }] }],
    [{ model: 'm', messages: [user], response_format: { type: 'xml' } }],
    [{ model: 'm', messages: [user], stream_options: { include_usage: true } }],
    [{ model: 'm', messages: [user], top_logprobs: 2 }],
  ])('leaves an invalid body to the whole schema: %j', (body) => {
    expect(chatCompletionRequestSchema.parseValid(body)).toBeUndefined();
    expect(chatCompletionRequestSchema.full.safeParse(body).success).toBe(false);
  });
});

describe('createSparseLooseObject', () => {
  it('lets zod fill in a field with a default, sent or not', () => {
    const schema = createSparseLooseObject({ size: z.string().default('auto'), note: z.string().optional() }, () => []);
    expect(schema.parseValid({})).toEqual({ size: 'auto' });
    expect(schema.parseValid({ note: 'x' })).toEqual({ size: 'auto', note: 'x' });
    expect(schema.parseValid({ note: 3 })).toBeUndefined();
  });

  it('reports checks between fields through the whole schema, as zod issues', () => {
    const schema = createSparseLooseObject({ low: z.number().optional(), high: z.number().optional() }, (body) =>
      body.low !== undefined && body.high !== undefined && body.low > body.high
        ? [{ path: ['low'], message: 'must not exceed high' }]
        : [],
    );
    expect(schema.parseValid({ low: 3, high: 2 })).toBeUndefined();
    const result = schema.full.safeParse({ low: 3, high: 2 });
    expect(result.error?.issues[0]).toMatchObject({ code: 'custom', path: ['low'], message: 'must not exceed high' });
  });
});
