import { Readable } from 'node:stream';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it, vi } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { VendorCall } from '../vendor-adapter.js';

const call: VendorCall = {
  channel: {
    baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    secret: 'AKIAEXAMPLE:secretExample',
    settings: {},
  },
  upstreamModelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  publicModelId: 'claude-3-5-sonnet-20240620',
  maxOutputTokens: undefined,
  stream: true,
  clock: () => Date.UTC(2026, 10, 23, 8, 30, 0),
};

function event(name: string, payload: object): Buffer {
  const headers = {
    ':event-type': { type: 'string' as const, value: name },
    ':content-type': { type: 'string' as const, value: 'application/json' },
    ':message-type': { type: 'string' as const, value: 'event' },
  };
  return Buffer.from(
    new EventStreamCodec(toUtf8, fromUtf8).encode({ headers, body: fromUtf8(JSON.stringify(payload)) }),
  );
}

describe('bedrockVendorAdapter', () => {
  it("keeps the frames a vendor sent before cutting a process's first Bedrock stream", async () => {
    // A fresh module graph: the event-stream codec has not been loaded yet, as in a gateway's first Bedrock stream.
    vi.resetModules();
    const { bedrockVendorAdapter } = await import('./bedrock-vendor-adapter.js');
    await bedrockVendorAdapter.encodeRequest(
      chatRequestToCanonical({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] }),
      call,
    );
    const body = new Readable({ read() {} });
    body.push(
      Buffer.concat([
        event('messageStart', { role: 'assistant' }),
        event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello' } }),
      ]),
    );
    // The vendor cuts the connection right after: undici then drops whatever was not read yet.
    setImmediate(() => body.destroy(new Error('connection reset')));
    const parts: CanonicalStreamPart[] = [];
    try {
      for await (const part of bedrockVendorAdapter.decodeStream(body, call)) parts.push(part);
    } catch {
      // the cut itself
    }
    expect(parts).toContainEqual({ type: 'text-delta', blockIndex: 0, text: 'Hello' });
  });
});
