import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import type { CanonicalRequest } from '../../src/core/canonical/canonical-request.js';
import { parseMessagesRequest } from '../../src/protocols/anthropic-messages/parse-messages-request.js';
import { chatRequestToCanonical } from '../../src/protocols/openai-chat/chat-request-to-canonical.js';
import { encodeChatToolCallId } from '../../src/protocols/openai-chat/chat-tool-call-id.js';
import { parseResponsesRequest } from '../../src/protocols/openai-responses/parse-responses-request.js';
import { createReasoningSealer } from '../../src/protocols/shared/reasoning-sealer.js';
import { encodeAnthropicRequest } from '../../src/providers/anthropic/encode-anthropic-request.js';
import { encodeBedrockConverseBody } from '../../src/providers/bedrock/encode-bedrock-converse-body.js';
import { encodeGeminiRequest } from '../../src/providers/gemini/encode-gemini-request.js';
import { encodeOpenAiChatRequest } from '../../src/providers/openai/encode-openai-chat-request.js';
import { openAiQuirks } from '../../src/providers/openai/openai-wire-quirks.js';
import type { VendorCall } from '../../src/providers/vendor-adapter.js';

const call: VendorCall = {
  channel: { baseUrl: 'https://vendor.example.test/v1', secret: 'secret', settings: {} },
  upstreamModelId: 'model',
  publicModelId: 'model',
  maxOutputTokens: 1000,
  stream: false,
  clock: () => 1_700_000_000_000,
};

/** A Gemini functionCall thoughtSignature (standard base64, as Gemini sends it). */
const signature = Buffer.from('GEMINI-CALL-SIGNATURE').toString('base64');
const artefact = { producer: 'gemini', signature };
const sealer = createReasoningSealer(createSecretBox('gateway secret'));
const tool = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object' } };

/** The same Gemini tool round trip as each client protocol sends it back, in canonical terms. */
const fromEveryClientProtocol: Array<[string, () => CanonicalRequest]> = [
  [
    'chat (the artefact in the shown call id)',
    () =>
      chatRequestToCanonical({
        model: 'model',
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            tool_calls: [
              {
                id: encodeChatToolCallId('call_1', artefact),
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: encodeChatToolCallId('call_1', artefact), content: 'sunny' },
        ],
      }),
  ],
  [
    'Responses (a reasoning item sealing the artefact with the call id)',
    () =>
      parseResponsesRequest(
        {
          model: 'model',
          tools: [tool],
          input: [
            { role: 'user', content: 'Weather?' },
            {
              type: 'reasoning',
              id: 'rs_1',
              summary: [],
              encrypted_content: sealer.seal({ artefact, callId: 'call_1' }),
            },
            { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
          ],
        },
        { unsealReasoning: sealer.unseal },
      ).request,
  ],
  [
    'Messages (a thinking block sealing the artefact with the tool_use id)',
    () =>
      parseMessagesRequest(
        {
          model: 'model',
          max_tokens: 100,
          tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
          messages: [
            { role: 'user', content: 'Weather?' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: '', signature: sealer.seal({ artefact, callId: 'call_1' }) },
                { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
              ],
            },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' }] },
          ],
        },
        { unsealArtefact: sealer.unseal },
      ).request,
  ],
];

describe.each(fromEveryClientProtocol)(
  'a Gemini tool call artefact coming back through %s',
  (_protocol, canonicalRequest) => {
    it('is attached to the call, not to a reasoning part, with the plain call id on the call and its result', () => {
      const messages = canonicalRequest().messages;
      const assistant = messages.find((message) => message.role === 'assistant');
      expect(assistant?.content).toEqual([
        { type: 'tool-call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', artefact },
      ]);
      expect(messages.find((message) => message.role === 'tool')?.content).toEqual([
        { type: 'tool-result', callId: 'call_1', output: 'sunny' },
      ]);
    });

    it('reaches Gemini on the functionCall part', async () => {
      const body = JSON.parse((await encodeGeminiRequest(canonicalRequest(), call)).body) as {
        contents: Array<{ role: string; parts: unknown[] }>;
      };
      expect(body.contents[1]).toEqual({
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: signature }],
      });
    });

    it('never reaches Anthropic, Bedrock or OpenAI channels, in any form', () => {
      const request = canonicalRequest();
      const bodies = [
        encodeAnthropicRequest(request, call).body,
        JSON.stringify(encodeBedrockConverseBody(request, new Map())),
        encodeOpenAiChatRequest(request, call, openAiQuirks).body,
      ];
      for (const body of bodies) {
        expect(body).toContain('call_1');
        expect(body).not.toContain(signature);
        expect(body).not.toContain(Buffer.from(signature, 'base64').toString('base64url'));
        expect(body).not.toContain('__sig_');
      }
    });
  },
);
