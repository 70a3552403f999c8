import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { createReasoningSealer } from '../shared/reasoning-sealer.js';
import { geminiChannelFilter } from './gemini-channel-filter.js';
import { parseGeminiRequest } from './parse-gemini-request.js';

const sealer = createReasoningSealer(createSecretBox('gateway secret'));

function channelOf(protocol: RoutableChannel['protocol']): RoutableChannel {
  return {
    id: `ch-${protocol}`,
    name: protocol,
    protocol,
    baseUrl: 'http://vendor.test/v1',
    secret: 'secret',
    priority: 0,
    weight: 1,
    ownedBy: protocol,
    modelMapping: new Map(),
    settings: {},
  };
}

function requestOf(body: Record<string, unknown>) {
  return parseGeminiRequest(
    { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...body },
    { modelId: 'mixed-model', stream: false, unsealArtefact: sealer.unseal },
  ).request;
}

const safetySettings = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }];

describe('geminiChannelFilter', () => {
  it('lets every channel serve a request without Gemini-only members', () => {
    expect(geminiChannelFilter(requestOf({}), [channelOf('openai'), channelOf('gemini')])).toBeUndefined();
  });

  it('lets only Gemini channels serve a request with safetySettings', () => {
    const accepts = geminiChannelFilter(requestOf({ safetySettings }), [channelOf('anthropic'), channelOf('gemini')]);
    expect(accepts?.(channelOf('gemini'))).toBe(true);
    expect(accepts?.(channelOf('anthropic'))).toBe(false);
    expect(accepts?.(channelOf('openai'))).toBe(false);
  });

  it('refuses safetySettings with a 400 naming it when no channel of the model is a Gemini one', () => {
    let refusal: unknown;
    try {
      geminiChannelFilter(requestOf({ safetySettings }), [channelOf('openai'), channelOf('bedrock')]);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).status).toBe(400);
    expect((refusal as GatewayError).param).toBe('safetySettings');
    expect((refusal as GatewayError).message).toContain("'mixed-model'");
  });
});
