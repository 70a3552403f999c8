import { describe, expect, it } from 'vitest';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { createMessagesPassThrough, type MessagesPassThroughOptions } from './messages-pass-through.js';

const channel: RoutableChannel = {
  id: 'ch-1',
  name: 'anthropic',
  protocol: 'anthropic',
  baseUrl: 'http://vendor.test/v1',
  secret: 'sk-ant-secret',
  priority: 0,
  weight: 1,
  ownedBy: 'anthropic',
  modelMapping: new Map(),
  settings: { apiVersion: '2023-06-01' },
};

/** Sealed signatures in these tests are `sealed:<producer>:<signature>`. */
function unsealArtefact(signature: string): VendorArtefact | null {
  const [marker, producer, raw] = signature.split(':');
  return marker === 'sealed' && producer && raw ? { producer, signature: raw } : null;
}

function passThrough(overrides: Partial<MessagesPassThroughOptions> = {}) {
  return createMessagesPassThrough({
    body: { model: 'public-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    anthropicVersion: '2026-10-21',
    anthropicBeta: 'interleaved-thinking-2025-05-14',
    messageId: 'msg_gateway',
    model: 'public-claude',
    unsealArtefact,
    ...overrides,
  });
}

describe('the Messages pass-through to Anthropic channels', () => {
  it("forwards the client's version and the planned betas, never a query string, presenting the key as that version wants", () => {
    const request = passThrough().encode(channel, 'claude-upstream');
    expect(request.url).toBe('http://vendor.test/v1/messages');
    expect(request.headers).toMatchObject({
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'interleaved-thinking-2025-05-14',
      authorization: 'Bearer sk-ant-secret',
    });
    expect(JSON.parse(String(request.body))).toMatchObject({ model: 'claude-upstream', max_tokens: 10 });
    const older = passThrough({ anthropicVersion: undefined, anthropicBeta: undefined }).encode(
      channel,
      'claude-upstream',
    );
    expect(older.headers).toMatchObject({ 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-secret' });
    expect(older.headers['anthropic-beta']).toBeUndefined();
  });

  it("drops thinking another vendor produced, restores Anthropic's own raw signature, and leaves vendor signatures alone", () => {
    const assistant = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'from gemini', signature: 'sealed:gemini:g-sig' },
        { type: 'thinking', thinking: 'from claude via the gateway', signature: 'sealed:anthropic:a-sig' },
        { type: 'thinking', thinking: 'raw from claude', signature: 'raw-claude-signature' },
        { type: 'text', text: 'answer' },
      ],
    };
    const body = {
      model: 'public-claude',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'q' }, assistant, { role: 'user', content: 'next' }],
    };
    const sent = JSON.parse(String(passThrough({ body }).encode(channel, 'claude-upstream').body)) as {
      messages: Array<{ content: unknown }>;
    };
    expect(sent.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'from claude via the gateway', signature: 'a-sig' },
      { type: 'thinking', thinking: 'raw from claude', signature: 'raw-claude-signature' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it("shows the gateway's message id and the public model, and reads usage with cache reads and writes in the input", async () => {
    const vendor = {
      type: 'message',
      id: 'msg_vendor',
      model: 'claude-upstream',
      content: [],
      usage: { input_tokens: 3, cache_read_input_tokens: 4, cache_creation_input_tokens: 1, output_tokens: 9 },
    };
    const answer = await passThrough().rewriteAnswer(JSON.stringify(vendor), channel);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 'msg_gateway', model: 'public-claude' });
    expect(answer.body).not.toContain('msg_vendor');
    expect(answer.usage).toMatchObject({
      promptTokens: 8,
      cachedPromptTokens: 4,
      cacheWritePromptTokens: 1,
      completionTokens: 9,
    });
  });

  it('relays the stream with the ids replaced, cumulative usage read, and message_stop as its end', async () => {
    const relay = passThrough().createStreamRelay(channel);
    const start = await relay.relayEvent({
      event: 'message_start',
      data: JSON.stringify({
        type: 'message_start',
        message: { id: 'msg_vendor', model: 'claude-upstream', usage: { input_tokens: 5, output_tokens: 1 } },
      }),
      id: undefined,
    });
    expect(start.frames[0]).toContain('"id":"msg_gateway"');
    expect(start.frames[0]).not.toContain('msg_vendor');
    const delta = await relay.relayEvent({
      event: 'message_delta',
      data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }),
      id: undefined,
    });
    expect(delta.usage).toMatchObject({ promptTokens: 5, completionTokens: 7 });
    const stop = await relay.relayEvent({ event: 'message_stop', data: '{"type":"message_stop"}', id: undefined });
    expect(stop).toMatchObject({ terminal: true, frames: ['event: message_stop\ndata: {"type":"message_stop"}\n\n'] });
  });

  it('reports the text, thinking and tool input each delta generated, for billing a stream that ends without usage', async () => {
    const relay = passThrough().createStreamRelay(channel);
    const deltaOf = (delta: Record<string, unknown>) =>
      relay.relayEvent({
        event: 'content_block_delta',
        data: JSON.stringify({ type: 'content_block_delta', index: 0, delta }),
        id: undefined,
      });
    expect((await deltaOf({ type: 'text_delta', text: 'Echo: ' })).generatedText).toBe('Echo: ');
    expect((await deltaOf({ type: 'thinking_delta', thinking: 'hmm' })).generatedText).toBe('hmm');
    expect((await deltaOf({ type: 'input_json_delta', partial_json: '{"q":' })).generatedText).toBe('{"q":');
    expect((await deltaOf({ type: 'signature_delta', signature: 'sig' })).generatedText).toBeUndefined();
  });

  it("fails over on the vendor's error event before any frame, and relays it (redacted) after one", async () => {
    const early = passThrough().createStreamRelay(channel);
    const before = await early.relayEvent({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      id: undefined,
    });
    expect(before.frames).toEqual([]);
    expect(before.failure?.code).toBe('service_unavailable');
    const late = passThrough().createStreamRelay(channel);
    await late.relayEvent({
      event: 'message_start',
      data: JSON.stringify({ type: 'message_start', message: { id: 'm', usage: {} } }),
      id: undefined,
    });
    const after = await late.relayEvent({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'key sk-ant-secret broke' } }),
      id: undefined,
    });
    expect(after.terminal).toBe(true);
    expect(after.frames[0]).toContain('event: error');
    expect(after.frames[0]).not.toContain('sk-ant-secret');
  });
});
