import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import { describe, expect, it } from 'vitest';
import type { VendorCall } from '../vendor-adapter.js';
import { bedrockConverseUrl, encodeBedrockChatRequest } from './encode-bedrock-chat-request.js';
import { parseBedrockCredentials } from './parse-bedrock-credentials.js';
import { resolveBedrockRegion } from './resolve-bedrock-region.js';

function call(
  fields: Partial<VendorCall> & { settings?: Record<string, string>; baseUrl?: string; secret?: string },
): VendorCall {
  return {
    channel: {
      baseUrl: fields.baseUrl ?? 'https://bedrock-runtime.eu-west-3.amazonaws.com',
      secret: fields.secret ?? 'AKIAEXAMPLE:secretExample',
      settings: fields.settings ?? {},
    },
    upstreamModelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    publicModelId: 'claude-3-5-sonnet-20240620',
    maxOutputTokens: undefined,
    stream: fields.stream ?? false,
    clock: () => Date.UTC(2026, 10, 23, 8, 30, 0),
  };
}

describe('Bedrock request signing', () => {
  it('percent-encodes the model id into the Converse path', () => {
    expect(
      bedrockConverseUrl('https://bedrock-runtime.us-east-1.amazonaws.com/', 'meta.llama3-3-70b-instruct-v1:0', true),
    ).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/meta.llama3-3-70b-instruct-v1%3A0/converse-stream');
  });

  it('signs with SigV4 for service bedrock in the region of the base URL, at the call clock', async () => {
    const signed = await encodeBedrockChatRequest(
      chatRequestToCanonical({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }),
      call({}),
    );
    expect(signed.url).toBe(
      'https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    );
    expect(signed.body).toBe('{"messages":[{"role":"user","content":[{"text":"Hi"}]}]}');
    expect(signed.headers).toMatchObject({
      host: 'bedrock-runtime.eu-west-3.amazonaws.com',
      'content-type': 'application/json',
      'x-amz-date': '20261123T083000Z',
    });
    expect(signed.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE\/20261123\/eu-west-3\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  it('signs the session token of temporary credentials', async () => {
    const signed = await encodeBedrockChatRequest(
      chatRequestToCanonical({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }),
      call({ secret: 'ASIAEXAMPLE:secret:token/with+base64==' }),
    );
    expect(signed.headers['x-amz-security-token']).toBe('token/with+base64==');
    expect(signed.headers.authorization).toContain('x-amz-security-token');
  });

  it('takes the region from settings first, then the host, then us-east-1', () => {
    expect(
      resolveBedrockRegion({
        baseUrl: 'https://bedrock-runtime.eu-west-3.amazonaws.com',
        secret: '',
        settings: { region: 'ap-south-1' },
      }),
    ).toBe('ap-south-1');
    expect(
      resolveBedrockRegion({
        baseUrl: 'https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com',
        secret: '',
        settings: {},
      }),
    ).toBe('us-gov-west-1');
    expect(resolveBedrockRegion({ baseUrl: 'http://127.0.0.1:9000', secret: '', settings: {} })).toBe('us-east-1');
  });

  it('refuses a secret that is not <access key id>:<secret access key> as a channel problem', () => {
    expect(() => parseBedrockCredentials('just-a-key')).toThrow(
      expect.objectContaining({ code: 'service_unavailable' }),
    );
    expect(parseBedrockCredentials('AKID:secret')).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'secret' });
  });
});
