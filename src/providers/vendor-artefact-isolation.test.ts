import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { encodeAnthropicRequest } from './anthropic/encode-anthropic-request.js';
import { encodeBedrockConverseBody } from './bedrock/encode-bedrock-converse-body.js';
import { encodeGeminiRequest } from './gemini/encode-gemini-request.js';
import type { VendorCall } from './vendor-adapter.js';

const call: VendorCall = {
  channel: { baseUrl: 'https://vendor.example.test/v1', secret: 'secret', settings: {} },
  upstreamModelId: 'model',
  publicModelId: 'model',
  maxOutputTokens: 1000,
  stream: false,
  clock: () => 1_700_000_000_000,
};

/** A conversation whose assistant turn carries reasoning and a tool call from each vendor family. */
const request: CanonicalRequest = {
  model: 'model',
  instructions: 'Be brief.',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'anthropic thought',
          artefact: { producer: 'anthropic', signature: 'ANTHROPIC-SIG' },
        },
        { type: 'reasoning', text: '', artefact: { producer: 'anthropic', redactedData: 'ANTHROPIC-REDACTED' } },
        { type: 'reasoning', text: 'gemini thought', artefact: { producer: 'gemini', signature: 'GEMINI-SIG' } },
        { type: 'reasoning', text: 'bedrock thought', artefact: { producer: 'bedrock', signature: 'BEDROCK-SIG' } },
        { type: 'reasoning', text: 'unsigned thought' },
        { type: 'text', text: 'Checking.' },
        {
          type: 'tool-call',
          callId: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          artefact: { producer: 'gemini', signature: 'GEMINI-CALL-SIG' },
        },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', output: 'sunny' }] },
  ],
  tools: [{ name: 'get_weather', parameters: { type: 'object' }, strict: null }],
  toolChoice: null,
  parallelToolCalls: null,
  outputFormat: { type: 'text' },
  reasoningEffort: null,
  maxOutputTokens: null,
  sampling: { temperature: null, topP: null },
  metadata: null,
  stream: false,
};

const everySignature = ['ANTHROPIC-SIG', 'ANTHROPIC-REDACTED', 'GEMINI-SIG', 'GEMINI-CALL-SIG', 'BEDROCK-SIG'];

function othersThan(...own: string[]): string[] {
  return everySignature.filter((signature) => !own.includes(signature));
}

describe('vendor artefacts go back only to the vendor that produced them', () => {
  it('Anthropic gets its thinking with its signature and its redacted thinking, never Gemini or Bedrock signatures or unsigned reasoning', () => {
    const body = encodeAnthropicRequest(request, call).body;
    const parsed = JSON.parse(body) as { system: unknown; messages: Array<{ role: string; content: unknown[] }> };
    // The gateway's own prompt-cache breakpoint sits on the last system block (place-anthropic-cache-breakpoints.ts).
    expect(parsed.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    expect(parsed.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'anthropic thought', signature: 'ANTHROPIC-SIG' },
      { type: 'redacted_thinking', data: 'ANTHROPIC-REDACTED' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    for (const foreign of othersThan('ANTHROPIC-SIG', 'ANTHROPIC-REDACTED')) expect(body).not.toContain(foreign);
    expect(body).not.toContain('gemini thought');
    expect(body).not.toContain('unsigned thought');
  });

  it('Gemini gets its thought and its call signature on the parts they came with, never an Anthropic or Bedrock signature', async () => {
    const body = (await encodeGeminiRequest(request, call)).body;
    const parsed = JSON.parse(body) as { contents: Array<{ role: string; parts: unknown[] }> };
    expect(parsed.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'gemini thought', thought: true, thoughtSignature: 'GEMINI-SIG' },
        { text: 'Checking.' },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'GEMINI-CALL-SIG' },
      ],
    });
    for (const foreign of othersThan('GEMINI-SIG', 'GEMINI-CALL-SIG')) expect(body).not.toContain(foreign);
    expect(body).not.toContain('anthropic thought');
  });

  it('Gemini never reads a signature out of a call id (the chat protocol splits shown ids before adapters see them)', async () => {
    const fromElsewhere: CanonicalRequest = {
      ...request,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', callId: 'call_r_0_0__sig_gemini_c2ln', name: 'get_weather', arguments: '{}' }],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              callId: 'call_r_0_0',
              name: 'get_weather',
              arguments: '{}',
              artefact: { producer: 'anthropic', signature: 'x' },
            },
          ],
        },
      ],
    };
    const parsed = JSON.parse((await encodeGeminiRequest(fromElsewhere, call)).body) as {
      contents: Array<{ parts: Array<{ thoughtSignature?: string }> }>;
    };
    expect(parsed.contents[1]?.parts.map((part) => part.thoughtSignature)).toEqual([undefined, undefined]);
  });

  it('Bedrock gets its reasoning with its signature, never an Anthropic or Gemini one', () => {
    const body = JSON.stringify(encodeBedrockConverseBody(request, new Map()));
    expect(encodeBedrockConverseBody(request, new Map()).messages[1]?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'bedrock thought', signature: 'BEDROCK-SIG' } } },
      { text: 'Checking.' },
      { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
    ]);
    for (const foreign of othersThan('BEDROCK-SIG')) expect(body).not.toContain(foreign);
  });
});
