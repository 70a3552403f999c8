import { describe, expect, it } from 'vitest';
import type { ClientAnswerCodec } from '../core/canonical/client-answer-codec.js';
import { GatewayError } from '../core/gateway-error.js';
import { messagesParamInverts, messagesParamName } from '../protocols/anthropic-messages/messages-param-name.js';
import { responsesParamName } from '../protocols/openai-responses/responses-param-name.js';
import { nameParamsForClient } from './name-params-for-client.js';

function codecNaming(clientParam?: (chatParam: string) => string): ClientAnswerCodec {
  return {
    encodeAnswer: () => '{}',
    createStreamEncoder: () => ({ start: () => [], push: () => [], end: () => [], fail: () => [] }),
    ...(clientParam ? { clientParam } : {}),
  };
}

const refusal = new GatewayError('invalid_request_error', '`max_tokens` must be above 1024 with `reasoning_effort`.', {
  param: 'max_tokens',
  headers: { 'x-a': 'b' },
});

describe('nameParamsForClient', () => {
  it("renames the param and the names the message quotes with the client protocol's own", () => {
    const renamed = nameParamsForClient(refusal, codecNaming(responsesParamName));
    expect(renamed).toBeInstanceOf(GatewayError);
    expect((renamed as GatewayError).toBody().error).toMatchObject({
      param: 'max_output_tokens',
      message: '`max_output_tokens` must be above 1024 with `reasoning.effort`.',
    });
    expect((renamed as GatewayError).headers).toEqual({ 'x-a': 'b' });
    expect((nameParamsForClient(refusal, codecNaming(messagesParamName)) as GatewayError).message).toBe(
      '`max_tokens` must be above 1024 with `thinking`.',
    );
  });

  it('inverts the advised value of a parameter whose client name means the opposite (disable_parallel_tool_use)', () => {
    const advice = new GatewayError(
      'invalid_request_error',
      'This model cannot be limited to one tool call per turn; omit `parallel_tool_calls` or set it to `true`.',
      { param: 'parallel_tool_calls' },
    );
    const messagesCodec = { ...codecNaming(messagesParamName), clientParamInverts: messagesParamInverts };
    expect((nameParamsForClient(advice, messagesCodec) as GatewayError).toBody().error).toMatchObject({
      param: 'tool_choice.disable_parallel_tool_use',
      message:
        'This model cannot be limited to one tool call per turn; omit `tool_choice.disable_parallel_tool_use` or set it to `false`.',
    });
    // Responses keeps the chat name, so the advice stands.
    expect((nameParamsForClient(advice, codecNaming(responsesParamName)) as GatewayError).message).toBe(advice.message);
  });

  it('leaves chat (no clientParam), errors other than a 400 and foreign errors as they are', () => {
    expect(nameParamsForClient(refusal, codecNaming())).toBe(refusal);
    const unavailable = new GatewayError('service_unavailable', '`reasoning_effort` busy');
    expect(nameParamsForClient(unavailable, codecNaming(responsesParamName))).toBe(unavailable);
    const bug = new Error('x');
    expect(nameParamsForClient(bug, codecNaming(responsesParamName))).toBe(bug);
  });
});

describe('client parameter names', () => {
  it.each([
    ['reasoning_effort', 'reasoning.effort', 'thinking'],
    ['response_format', 'text.format', 'output_config.format'],
    ['max_tokens', 'max_output_tokens', 'max_tokens'],
    ['stop', 'stop', 'stop_sequences'],
    ['messages[3].content[1].image_url.url', 'input', 'messages'],
    ['temperature', 'temperature', 'temperature'],
    ['tool_choice', 'tool_choice', 'tool_choice'],
  ])('names the chat parameter %s as %s (Responses) and %s (Messages)', (chatParam, responsesName, messagesName) => {
    expect(responsesParamName(chatParam)).toBe(responsesName);
    expect(messagesParamName(chatParam)).toBe(messagesName);
  });
});
