import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { scanJsonStructure } from '../install-json-body-parser.js';
import { clientJsonBytesFor } from './create-json-body-builder.js';

function requestOf(text: string): FastifyRequest {
  const bytes = Buffer.from(text);
  return {
    body: JSON.parse(text) as unknown,
    rawJsonBody: { bytes, topLevelMembers: scanJsonStructure(text, 100).topLevelMembers },
  } as FastifyRequest;
}

describe('clientJsonBytesFor', () => {
  const text = '{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"n":1}';

  it('gives the bytes back when the validated body says the same', () => {
    const request = requestOf(text);
    const validated = structuredClone(request.body) as Record<string, unknown>;
    expect(Buffer.from(clientJsonBytesFor(request, validated) ?? []).toString()).toBe(text);
  });

  it.each([
    [
      'a nested value changed',
      (body: Record<string, unknown>) => ((body.messages as Array<{ role: string }>)[0]!.role = 'system'),
    ],
    [
      'a nested key added',
      (body: Record<string, unknown>) => ((body.messages as Array<Record<string, unknown>>)[0]!.name = 'x'),
    ],
    ['a top-level key dropped', (body: Record<string, unknown>) => delete body.n],
    ['an array shortened', (body: Record<string, unknown>) => (body.messages as unknown[]).pop()],
    ['a number turned into a string', (body: Record<string, unknown>) => (body.n = '1')],
  ])('refuses them when %s', (_, change) => {
    const request = requestOf(text);
    const validated = structuredClone(request.body) as Record<string, unknown>;
    change(validated);
    expect(clientJsonBytesFor(request, validated)).toBeUndefined();
  });

  it('refuses a text with a key given twice', () => {
    const request = requestOf('{"model":"cheap","messages":[],"model":"m"}');
    expect(clientJsonBytesFor(request, structuredClone(request.body) as Record<string, unknown>)).toBeUndefined();
  });

  it('writes members the client did not send at the front of its bytes, the rest as sent', () => {
    const request = requestOf(` \n${text}`);
    const validated = {
      ...(structuredClone(request.body) as Record<string, unknown>),
      stream_options: { include_usage: true },
    };
    const bytes = Buffer.from(clientJsonBytesFor(request, validated) ?? []).toString();
    expect(bytes).toBe(`{"stream_options":{"include_usage":true},${text.slice(1)}`);
    expect(JSON.parse(bytes)).toEqual(validated);
  });

  it('adds to an empty object without a stray comma, and adds nothing for a member without a JSON value', () => {
    expect(Buffer.from(clientJsonBytesFor(requestOf('{}'), { stream: true }) ?? []).toString()).toBe('{"stream":true}');
    const request = requestOf(text);
    expect(
      clientJsonBytesFor(request, { ...(structuredClone(request.body) as Record<string, unknown>), user: undefined }),
    ).toBe(request.rawJsonBody!.bytes);
  });

  it('refuses to add to a text with a key given twice', () => {
    const request = requestOf('{"model":"cheap","messages":[],"model":"m"}');
    expect(
      clientJsonBytesFor(request, {
        ...(structuredClone(request.body) as Record<string, unknown>),
        stream_options: { include_usage: true },
      }),
    ).toBeUndefined();
  });

  it('refuses a request without a JSON body', () => {
    const request = { body: { model: 'm' }, rawJsonBody: null } as FastifyRequest;
    expect(clientJsonBytesFor(request, { model: 'm' })).toBeUndefined();
  });
});
