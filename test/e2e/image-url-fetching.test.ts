// Image URLs sent to vendors that take image bytes only (Bedrock, Gemini): the gateway fetches them from a loopback
// image server and inlines the bytes, or, when the address is not one it may fetch, answers 400 naming the URL
// without calling the vendor. Driven by the official openai SDK.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startContractGateway, type ContractGateway } from '../contract/start-contract-gateway.js';
import { redPixelPng, startImageServer, type ImageServer } from '../helpers/start-image-server.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';

const geminiSecret = 'AIza-image-fetch-upstream';
const models = { bedrock: 'vision-bedrock', gemini: 'vision-gemini' } as const;
const imageParam = 'messages[0].content[1].image_url.url';

let images: ImageServer;
let bedrock: BedrockSimulator;
let gemini: GeminiSimulator;
// One gateway that may fetch from loopback (as an operator with an intranet image host would allow), one with the default.
let allowing: { gateway: ContractGateway; client: OpenAI };
let refusing: { gateway: ContractGateway; client: OpenAI };

async function startGatewayWithChannels(
  allowPrivateAddresses: boolean,
): Promise<{ gateway: ContractGateway; client: OpenAI }> {
  const gateway = await startContractGateway({
    imageFetchAllowPrivateAddresses: allowPrivateAddresses,
    imageFetchTimeoutMs: 5_000,
  });
  await gateway.createChannel({
    protocol: 'bedrock',
    baseUrl: bedrock.url,
    secret: bedrock.channelSecret,
    settings: { region: bedrock.region },
    models: { [models.bedrock]: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
  });
  await gateway.createChannel({
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: { [models.gemini]: 'gemini-sim' },
  });
  const client = new OpenAI({
    apiKey: await gateway.createKey(),
    baseURL: gateway.baseURL,
    maxRetries: 0,
    timeout: 20_000,
  });
  return { gateway, client };
}

function messagesAbout(imageUrl: string): OpenAI.Chat.ChatCompletionMessageParam[] {
  return [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what colour is this pixel' },
        { type: 'image_url', image_url: { url: imageUrl } },
      ],
    },
  ];
}

function askAbout(client: OpenAI, model: string, imageUrl: string) {
  return client.chat.completions.create({ model, messages: messagesAbout(imageUrl) });
}

async function rejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/** The inline images of the one request a simulator received, as [media type, base64] pairs. */
function inlineImagesReceived(protocol: keyof typeof models): Array<[string, string]> {
  if (protocol === 'bedrock') {
    expect(bedrock.requests).toHaveLength(1);
    const body = bedrock.requests[0]?.body as {
      messages: Array<{ content: Array<{ image?: { format: string; source: { bytes: string } } }> }>;
    };
    return body.messages.flatMap((message) =>
      message.content.flatMap((block) =>
        block.image ? [[block.image.format, block.image.source.bytes] as [string, string]] : [],
      ),
    );
  }
  expect(gemini.requests).toHaveLength(1);
  const body = gemini.requests[0]?.body as {
    contents: Array<{ parts: Array<{ inlineData?: { mimeType: string; data: string } }> }>;
  };
  return body.contents.flatMap((content) =>
    content.parts.flatMap((part) =>
      part.inlineData ? [[part.inlineData.mimeType, part.inlineData.data] as [string, string]] : [],
    ),
  );
}

beforeAll(async () => {
  images = await startImageServer();
  bedrock = await startBedrockSimulator();
  gemini = await startGeminiSimulator({ apiKey: geminiSecret });
  allowing = await startGatewayWithChannels(true);
  refusing = await startGatewayWithChannels(false);
});

afterAll(async () => {
  await allowing?.gateway.close();
  await refusing?.gateway.close();
  await bedrock?.close();
  await gemini?.close();
  await images?.close();
});

beforeEach(() => {
  bedrock.reset();
  gemini.reset();
  images.requestedPaths.length = 0;
});

describe('image URLs for vendors that take image bytes only', () => {
  it.each([
    ['bedrock', 'png'],
    ['gemini', 'image/png'],
  ] as const)('%s gets the served PNG inline, fetched once', async (protocol, mediaType) => {
    const completion = await askAbout(allowing.client, models[protocol], `${images.url}/red-pixel.png`);
    expect(completion.choices[0]?.message.content).toContain('what colour is this pixel');
    expect(images.requestedPaths).toEqual(['/red-pixel.png']);
    const inlined = inlineImagesReceived(protocol);
    expect(inlined).toEqual([[mediaType, redPixelPng.toString('base64')]]);
    expect(Buffer.from(inlined[0]?.[1] ?? '', 'base64').equals(redPixelPng)).toBe(true);
  });

  it('inlines the image on a streamed request too', async () => {
    const stream = await allowing.client.chat.completions.create({
      model: models.gemini,
      stream: true,
      messages: messagesAbout(`${images.url}/red-pixel.png`),
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toContain('what colour is this pixel');
    expect(inlineImagesReceived('gemini')).toEqual([['image/png', redPixelPng.toString('base64')]]);
  });

  it.each(Object.values(models))(
    '%s: a loopback URL is refused by default with a 400 naming it, and the vendor is never called',
    async (model) => {
      const error = await rejectionOf(askAbout(refusing.client, model, `${images.url}/red-pixel.png`));
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_request_error');
      expect(error.type).toBe('invalid_request_error');
      expect(error.param).toBe(imageParam);
      expect(error.message).not.toContain('127.0.0.1');
      expect(images.requestedPaths).toEqual([]);
      expect(bedrock.requests).toHaveLength(0);
      expect(gemini.requests).toHaveLength(0);
    },
  );

  it.each(Object.values(models))(
    '%s: a URL that does not answer with an image is a 400 naming it, and the vendor is never called',
    async (model) => {
      const error = await rejectionOf(askAbout(allowing.client, model, `${images.url}/page.html`));
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_request_error');
      expect(error.param).toBe(imageParam);
      expect(error.message).toMatch(/only PNG, JPEG, GIF and WebP/);
      expect(bedrock.requests).toHaveLength(0);
      expect(gemini.requests).toHaveLength(0);
    },
  );
});
