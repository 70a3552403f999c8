import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { chatRequestToCanonical } from './chat-request-to-canonical.js';

function refusedParam(request: Partial<ChatCompletionRequest>): string | null {
  try {
    chatRequestToCanonical({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...request });
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  return 'accepted';
}

describe('chatRequestToCanonical', () => {
  it("keeps one canonical message per chat message (so vendor 400s name the client's index) and maps every canonical field", () => {
    const canonical = chatRequestToCanonical({
      model: 'public-model',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'https://images.example.test/a.png', detail: 'low' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,AA==', filename: 'a.pdf' } },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'refusal', refusal: 'no' } as never],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [
            { type: 'text', text: 'o' },
            { type: 'text', text: 'k' },
          ],
        },
      ],
      tools: [
        { type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object' }, strict: true } },
      ],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'low',
      max_tokens: 10,
      max_completion_tokens: 20,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['', 'END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0,
      metadata: { a: 'b' },
      user: 'user-1',
      stream: true,
    });
    expect(canonical).toEqual({
      model: 'public-model',
      instructions: null,
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', url: 'https://images.example.test/a.png', detail: 'low' },
            { type: 'file', data: 'data:application/pdf;base64,AA==', filename: 'a.pdf' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'no' },
            { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{"a":1}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', output: 'ok' }] },
      ],
      tools: [{ name: 'f', description: 'F', parameters: { type: 'object' }, strict: true }],
      toolChoice: { type: 'tool', name: 'f' },
      parallelToolCalls: false,
      outputFormat: { type: 'json-schema', name: 'out', schema: { type: 'object' }, strict: true },
      reasoningEffort: 'low',
      maxOutputTokens: 20,
      sampling: {
        temperature: 0.5,
        topP: 0.9,
        stopSequences: ['END'],
        seed: 7,
        presencePenalty: 0.1,
        frequencyPenalty: 0,
      },
      metadata: { a: 'b' },
      endUserId: 'user-1',
      stream: true,
    });
  });

  it('splits a shown tool call id back into the plain id (on the call and its result) and the call artefact', () => {
    const canonical = chatRequestToCanonical({
      model: 'm',
      messages: [
        {
          role: 'assistant',
          tool_calls: [
            { id: 'call_1__sig_gemini_c2ln', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1__sig_gemini_c2ln', content: 'one' },
        { role: 'tool', tool_call_id: 'call_2', content: 'two' },
      ],
    });
    expect(canonical.messages).toStrictEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            callId: 'call_1',
            name: 'f',
            arguments: '{}',
            artefact: { producer: 'gemini', signature: 'c2ln' },
          },
          { type: 'tool-call', callId: 'call_2', name: 'g', arguments: '{}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', output: 'one' }] },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_2', output: 'two' }] },
    ]);
  });

  it('leaves what the client did not say as null', () => {
    const canonical = chatRequestToCanonical({ model: 'm', messages: [{ role: 'system', content: 'x' }] });
    expect(canonical).toMatchObject({
      toolChoice: null,
      parallelToolCalls: null,
      outputFormat: { type: 'text' },
      reasoningEffort: null,
      maxOutputTokens: null,
      sampling: { temperature: null, topP: null },
      metadata: null,
      stream: false,
    });
  });

  it.each([
    [
      { messages: [{ role: 'user' as const, content: [{ type: 'input_audio' as const, input_audio: {} }] }] },
      'messages[0].content[0]',
    ],
    [
      { messages: [{ role: 'user' as const, content: [{ type: 'file' as const, file: { file_id: 'file-1' } }] }] },
      'messages[0].content[0]',
    ],
    [{ messages: [{ role: 'function' as const, name: 'f', content: 'x' }] }, 'messages[0]'],
    [
      {
        messages: [
          {
            role: 'assistant' as const,
            tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'f', arguments: '[1]' } }],
          },
        ],
      },
      'messages[0].tool_calls[0].function.arguments',
    ],
    [{ n: 2 }, 'n'],
    [{ audio: { voice: 'alloy' } }, 'audio'],
  ])('refuses what the canonical request cannot carry with a 400 naming it (%#)', (fields, param) => {
    expect(refusedParam(fields as Partial<ChatCompletionRequest>)).toBe(param);
  });
});
