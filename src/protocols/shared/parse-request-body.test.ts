import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { chatCompletionRequestSchema } from '../openai-chat/chat-completion-request-schema.js';
import { formatParamPath, parseSparseRequestBody } from './parse-request-body.js';

function errorOf(body: unknown): GatewayError {
  try {
    parseSparseRequestBody(chatCompletionRequestSchema, body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

const user = { role: 'user', content: 'hi' };

describe('parseSparseRequestBody with the chat schema', () => {
  it.each([
    [{ messages: [user] }, 'model', /Missing required parameter/],
    [{ model: 'm' }, 'messages', /Missing required parameter/],
    [{ model: 'm', messages: [] }, 'messages', /at least one message/],
    [{ model: 'm', messages: [user], temperature: 2.5 }, 'temperature', /Invalid value/],
    [{ model: 'm', messages: [user], temperature: -0.1 }, 'temperature', /Invalid value/],
    [{ model: 'm', messages: [user], top_p: 1.5 }, 'top_p', /Invalid value/],
    [{ model: 'm', messages: [user], n: 0 }, 'n', /Invalid value/],
    [{ model: 'm', messages: [user], max_tokens: 0 }, 'max_tokens', /Invalid value/],
    [{ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role', /Invalid value/],
    [
      { model: 'm', messages: [user, { role: 'tool', content: 'x' }] },
      'messages[1].tool_call_id',
      /Missing required parameter/,
    ],
    [
      { model: 'm', messages: [user], tools: [{ type: 'function', function: { name: 'bad name!' } }] },
      'tools[0].function.name',
      /letters, digits/,
    ],
  ])('names the parameter at fault: %j', (body, param, message) => {
    const error = errorOf(body);
    expect(error.code).toBe('invalid_request_error');
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it('accepts the spec range edges and keeps unknown fields for the vendor', () => {
    const parsed = parseSparseRequestBody(chatCompletionRequestSchema, {
      model: 'm',
      messages: [user],
      temperature: 2,
      top_p: 0,
      service_tier: 'flex',
    });
    expect(parsed.temperature).toBe(2);
    expect(parsed.top_p).toBe(0);
    expect(parsed.service_tier).toBe('flex');
  });

  it('refuses a body that is not an object', () => {
    expect(errorOf([1, 2]).message).toMatch(/JSON object/);
  });
});

describe('formatParamPath', () => {
  it('writes OpenAI-style paths', () => {
    expect(formatParamPath(['messages', 0, 'content', 2, 'image_url'])).toBe('messages[0].content[2].image_url');
    expect(formatParamPath([])).toBe('');
  });
});
