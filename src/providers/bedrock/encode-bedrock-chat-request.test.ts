import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { VendorCall } from '../vendor-adapter.js';
import type { FetchRemoteImage } from '../remote-image/remote-image.js';
import { encodeBedrockChatRequest as encodeCanonical } from './encode-bedrock-chat-request.js';

/** A chat request as chat clients' requests reach the adapter: translated to the canonical request first. */
async function encodeBedrockChatRequest(
  request: ChatCompletionRequest,
  call: VendorCall,
): ReturnType<typeof encodeCanonical> {
  return encodeCanonical(chatRequestToCanonical(request), call);
}

const catUrl = 'https://images.example.test/cat';

function callWith(fetchRemoteImage: FetchRemoteImage | undefined): VendorCall {
  return {
    channel: {
      baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      secret: 'AKIAEXAMPLE:secretExample',
      settings: {},
    },
    upstreamModelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    publicModelId: 'claude-3-5-sonnet-20240620',
    maxOutputTokens: undefined,
    stream: false,
    clock: () => Date.UTC(2026, 10, 23, 8, 30, 0),
    ...(fetchRemoteImage ? { fetchRemoteImage } : {}),
  };
}

function withImageUrl(fields: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest {
  return {
    model: 'claude',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: catUrl } },
        ],
      },
    ],
    ...fields,
  };
}

async function refusal(action: Promise<unknown>): Promise<GatewayError> {
  const error = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error instanceof GatewayError) return error;
  throw new Error(`expected a 400, got ${String(error)}`);
}

describe('encodeBedrockChatRequest with image URLs', () => {
  it('fetches an http(s) image URL and sends its bytes with the format of its media type', async () => {
    const asked: string[] = [];
    const fetchJpeg: FetchRemoteImage = async (image) => {
      asked.push(`${image.url} ${image.param}`);
      return { mediaType: 'image/jpeg', base64: '/9j/AA==' };
    };
    const encoded = await encodeBedrockChatRequest(withImageUrl(), callWith(fetchJpeg));
    expect(asked).toEqual([`${catUrl} messages[0].content[1].image_url.url`]);
    expect(JSON.parse(encoded.body).messages).toEqual([
      {
        role: 'user',
        content: [{ text: 'What is this?' }, { image: { format: 'jpeg', source: { bytes: '/9j/AA==' } } }],
      },
    ]);
  });

  it('passes a failed fetch on as the 400 naming the URL', async () => {
    const failing: FetchRemoteImage = async ({ param }) => {
      throw new GatewayError('invalid_request_error', 'The image URL answered with HTTP status 404.', { param });
    };
    const error = await refusal(encodeBedrockChatRequest(withImageUrl(), callWith(failing)));
    expect(error.param).toBe('messages[0].content[1].image_url.url');
  });

  it('refuses image URLs with a 400 when the gateway has no fetcher', async () => {
    const error = await refusal(encodeBedrockChatRequest(withImageUrl(), callWith(undefined)));
    expect(error.code).toBe('invalid_request_error');
    expect(error.param).toBe('messages[0].content[1].image_url.url');
  });

  it('refuses an unsupported parameter before fetching anything', async () => {
    let fetches = 0;
    const counting: FetchRemoteImage = async () => {
      fetches++;
      return { mediaType: 'image/png', base64: 'AA==' };
    };
    const error = await refusal(encodeBedrockChatRequest(withImageUrl({ n: 2 }), callWith(counting)));
    expect(error.param).toBe('n');
    expect(fetches).toBe(0);
  });
});
