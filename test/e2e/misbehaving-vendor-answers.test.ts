import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, startTestGateway, type RawResponse, type TestGateway } from '../helpers/start-test-gateway.js';

// Non-streamed answers of vendors that misbehave (issue 37): redirects, 402, 2xx bodies that are not the endpoint's
// answer, answers beyond the size cap, resets and silence. None reaches the client as it came, and none is a 400.

const channelSecret = 'plain-channel-key-0123456789abcdef';
const geminiSecret = 'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW';
/** The size cap of the small gateway: the large answer below is over it, every other answer under it. */
const smallMaximumBodyBytes = 4096;
const question = [{ role: 'user', content: 'are you there' }];

let vendor: Server;
let vendorUrl: string;
let gateway: TestGateway;
/** Short upstream timeouts and a small size cap. */
let strictGateway: TestGateway;
let clientKey: string;
let strictClientKey: string;
/** The upstream model names the vendor was asked for, in order. */
const asked: string[] = [];

function chatAnswer(
  content: string,
  usage: unknown = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage,
  });
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': contentType, ...headers });
  response.end(body);
}

/** An embeddings answer of about `bytes` bytes (vectors of 256 numbers), usage at its end as OpenAI sends it. */
function largeEmbeddingsAnswer(bytes: number): string {
  const item = JSON.stringify({
    object: 'embedding',
    index: 0,
    embedding: Array.from({ length: 256 }, (_, index) => index / 1000),
  });
  const items = Array.from({ length: Math.ceil(bytes / item.length) }, () => item);
  return `{"object":"list","data":[${items.join(',')}],"model":"e","usage":{"prompt_tokens":5,"total_tokens":5}}`;
}
const largeEmbeddings = largeEmbeddingsAnswer(3 * 1024 * 1024);

/** Writes `text` in 64 KiB chunks without a Content-Length (chunked), then ends or cuts the connection. */
function sendChunked(request: IncomingMessage, response: ServerResponse, text: string, ending: 'end' | 'cut'): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  for (let offset = 0; offset < text.length; offset += 64 * 1024)
    response.write(text.slice(offset, offset + 64 * 1024));
  if (ending === 'end') response.end();
  else setTimeout(() => request.socket.destroy(), 100);
}

/** One answer per upstream model name; the Gemini path quotes the key it was sent, as careless vendors do. */
function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const url = request.url ?? '';
  if (url.includes('/models/gemini-leaky:generateContent')) {
    const key = String(request.headers['x-goog-api-key'] ?? '');
    send(
      response,
      400,
      'application/json',
      JSON.stringify({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: `Key ${key} may not use this model; see also AIzaSyZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ`,
        },
      }),
    );
    return;
  }
  if (url.includes('/models/gemini-redirect:generateContent')) {
    send(response, 302, 'text/html', '<html>Moved</html>', { location: 'https://elsewhere.example/' });
    return;
  }
  if (url.includes('/models/gemini-empty:generateContent')) {
    send(
      response,
      200,
      'application/json',
      JSON.stringify({ modelVersion: 'g', usageMetadata: { promptTokenCount: 3 } }),
    );
    return;
  }
  const model = String((JSON.parse(body) as { model?: unknown }).model);
  if (url.endsWith('/anthropic/v1/messages')) {
    // A 200 that is no Message: its `content` blocks missing, or its usage a string.
    const message =
      model === 'anthropic-no-content'
        ? { type: 'message', id: 'msg_1', role: 'assistant', usage: { input_tokens: 3, output_tokens: 1 } }
        : { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: 'lots' };
    send(response, 200, 'application/json', JSON.stringify(message));
    return;
  }
  asked.push(model);
  switch (model) {
    case 'redirect-302':
      send(response, 302, 'text/html', '<html><body>Moved</body></html>', {
        location: 'https://elsewhere.example/login',
      });
      return;
    case 'redirect-307':
      response.writeHead(307, { location: 'https://elsewhere.example/v1/chat/completions' });
      response.end();
      return;
    case 'page-500':
      send(response, 500, 'text/html', '<html><body>Internal Server Error</body></html>');
      return;
    case 'json-500':
      send(
        response,
        500,
        'application/json',
        JSON.stringify({
          error: { message: 'The server had an error while processing your request.', type: 'server_error' },
        }),
      );
      return;
    case 'credit-402':
      send(
        response,
        402,
        'application/json',
        JSON.stringify({ error: { message: 'Your credit balance is too low.', type: 'billing_error' } }),
      );
      return;
    case 'html-200':
      send(response, 200, 'text/html', '<!DOCTYPE html><html><body>Bad gateway</body></html>');
      return;
    case 'html-as-json-200':
      send(response, 200, 'application/json', '<!DOCTYPE html><html><body>Bad gateway</body></html>');
      return;
    case 'array-200':
      send(response, 200, 'application/json', '[]');
      return;
    case 'cut-off-200':
      send(response, 200, 'application/json', chatAnswer('hello').slice(0, 60));
      return;
    case 'no-choices-200':
      send(
        response,
        200,
        'application/json',
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      );
      return;
    case 'string-usage-200':
      send(response, 200, 'application/json', chatAnswer('hello', 'lots'));
      return;
    case 'embeddings-no-data':
      send(
        response,
        200,
        'application/json',
        JSON.stringify({ object: 'list', model: 'e', usage: { prompt_tokens: 1, total_tokens: 1 } }),
      );
      return;
    case 'embeddings-large-chunked':
      sendChunked(request, response, largeEmbeddings, 'end');
      return;
    case 'embeddings-large-with-length':
      send(response, 200, 'application/json', largeEmbeddings);
      return;
    case 'embeddings-large-html':
      sendChunked(request, response, `<!DOCTYPE html><html><body>${'x'.repeat(2 * 1024 * 1024)}</body></html>`, 'end');
      return;
    case 'embeddings-large-cut':
      sendChunked(request, response, largeEmbeddings.slice(0, 2 * 1024 * 1024), 'cut');
      return;
    case 'large-200':
      send(response, 200, 'application/json', chatAnswer('x'.repeat(smallMaximumBodyBytes * 2)));
      return;
    case 'large-chunked-200':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(chatAnswer('x'.repeat(smallMaximumBodyBytes * 2)).slice(0, smallMaximumBodyBytes * 2));
      // Never ends: the cap must stop reading on its own, not wait for the end.
      return;
    case 'reset-before-head':
      request.socket.destroy();
      return;
    case 'reset-after-head':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"chatcmpl-1","choices":[');
      setTimeout(() => request.socket.destroy(), 50);
      return;
    case 'silent':
      return;
    case 'trickle':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
      return;
    default:
      send(response, 200, 'application/json', chatAnswer(`Echo from ${model}`));
  }
}

async function startMisbehavingVendor(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  vendorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

/** Serves `publicModel` through one channel per upstream model name, tried in the order given. */
async function route(on: TestGateway, publicModel: string, upstreamModels: string[]): Promise<void> {
  for (const [position, upstreamModel] of upstreamModels.entries()) {
    await on.createChannel({
      name: `${publicModel}-${position}`,
      baseUrl: `${vendorUrl}/v1`,
      secret: channelSecret,
      models: [publicModel],
      modelMapping: { [publicModel]: upstreamModel },
      priority: 100 - position,
      refreshRouting: false,
    });
  }
}

const singleChannelFaults = [
  'redirect-302',
  'redirect-307',
  'html-200',
  'html-as-json-200',
  'array-200',
  'cut-off-200',
  'no-choices-200',
  'string-usage-200',
  'reset-before-head',
  'reset-after-head',
  'page-500',
];

beforeAll(async () => {
  vendor = await startMisbehavingVendor();
  gateway = await startTestGateway();
  strictGateway = await startTestGateway({
    config: { upstreamHeadersTimeoutMs: 500, upstreamBodyTimeoutMs: 500, upstreamMaxBodyBytes: smallMaximumBodyBytes },
  });
  for (const fault of singleChannelFaults) await route(gateway, `only-${fault}`, [fault]);
  await route(gateway, 'failover-after-302', ['redirect-302', 'healthy-after-302']);
  await route(gateway, 'failover-after-402', ['credit-402', 'healthy-after-402']);
  await route(gateway, 'failover-after-html', ['html-200', 'healthy-after-html']);
  await route(gateway, 'only-credit-402', ['credit-402']);
  await route(gateway, 'only-json-500', ['json-500']);
  await route(gateway, 'only-embeddings-no-data', ['embeddings-no-data']);
  for (const answerKind of [
    'embeddings-large-chunked',
    'embeddings-large-with-length',
    'embeddings-large-html',
    'embeddings-large-cut',
  ])
    await route(gateway, `only-${answerKind}`, [answerKind]);
  await gateway.createChannel({
    name: 'gemini-leaky',
    protocol: 'gemini',
    baseUrl: `${vendorUrl}/v1beta`,
    secret: geminiSecret,
    models: ['gemini-leaky'],
    refreshRouting: false,
  });
  for (const model of ['gemini-redirect', 'gemini-empty']) {
    await gateway.createChannel({
      name: model,
      protocol: 'gemini',
      baseUrl: `${vendorUrl}/v1beta`,
      secret: geminiSecret,
      models: [model],
      refreshRouting: false,
    });
  }
  for (const model of ['anthropic-no-content', 'anthropic-string-usage']) {
    await gateway.createChannel({
      name: model,
      protocol: 'anthropic',
      baseUrl: `${vendorUrl}/anthropic/v1`,
      secret: channelSecret,
      models: [model],
      refreshRouting: false,
    });
  }
  await gateway.refreshRouting();
  for (const fault of ['large-200', 'large-chunked-200', 'silent', 'trickle'])
    await route(strictGateway, `only-${fault}`, [fault]);
  await route(strictGateway, 'small-enough', ['healthy-small']);
  await strictGateway.refreshRouting();
  clientKey = (await gateway.createKey()).secret;
  strictClientKey = (await strictGateway.createKey()).secret;
});

afterAll(async () => {
  await gateway?.close();
  await strictGateway?.close();
  await new Promise((resolve) => vendor?.close(resolve));
});

function chat(on: TestGateway, key: string, model: string): Promise<RawResponse> {
  return postRawJson(on, key, '/v1/chat/completions', { model, messages: question });
}

function expectBadGateway(response: RawResponse): void {
  expect(response.status).toBe(502);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(expectErrorResponseShape(response.json())).toMatchObject({ type: 'server_error', code: 'upstream_error' });
}

describe('a non-streamed answer the gateway cannot relay', () => {
  it.each(singleChannelFaults)(
    'answers 502 upstream_error for a vendor answering %s, never its status or body',
    async (fault) => {
      const response = await chat(gateway, clientKey, `only-${fault}`);
      expectBadGateway(response);
      expect(response.headers.location).toBeUndefined();
      expect(response.text).not.toContain('<html');
      expect(response.text).not.toContain('elsewhere.example');
    },
  );

  it('fails over to the next channel after a redirect', async () => {
    const response = await chat(gateway, clientKey, 'failover-after-302');
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.json())).toContain('Echo from healthy-after-302');
  });

  it('fails over to the next channel after a 2xx HTML page', async () => {
    const response = await chat(gateway, clientKey, 'failover-after-html');
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.json())).toContain('Echo from healthy-after-html');
  });

  it('answers 502 for an embeddings answer without its data array', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/embeddings', {
      model: 'only-embeddings-no-data',
      input: 'hello',
    });
    expectBadGateway(response);
  });
});

describe('translated vendors (Gemini, Anthropic) answering badly', () => {
  it.each(['gemini-redirect', 'gemini-empty', 'anthropic-no-content', 'anthropic-string-usage'])(
    'answers 502 upstream_error for %s',
    async (model) => {
      const response = await chat(gateway, clientKey, model);
      expectBadGateway(response);
      expect(response.text).not.toContain('elsewhere.example');
    },
  );
});

describe("a vendor's 500", () => {
  it("stays a 500 server_error when it is the vendor's own JSON error (a 500 page is a 502, above)", async () => {
    const response = await chat(gateway, clientKey, 'only-json-500');
    expect(response.status).toBe(500);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ code: 'server_error' });
  });
});

describe('a vendor out of credit (402)', () => {
  it('fails over to the next channel', async () => {
    const response = await chat(gateway, clientKey, 'failover-after-402');
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.json())).toContain('Echo from healthy-after-402');
  });

  it("answers 503 when no other channel can answer, never the client's 400", async () => {
    const response = await chat(gateway, clientKey, 'only-credit-402');
    expect(response.status).toBe(503);
    expect(expectErrorResponseShape(response.json())).toMatchObject({
      type: 'server_error',
      code: 'service_unavailable',
    });
  });
});

describe('redaction of vendor error text', () => {
  it("removes a Gemini channel's own key and any other AIza key from the vendor's message", async () => {
    const response = await chat(gateway, clientKey, 'gemini-leaky');
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).message).toContain('may not use this model');
    expect(response.text).not.toContain(geminiSecret);
    expect(response.text).not.toContain('AIza');
  });
});

describe('size cap and silence', () => {
  it('relays an answer under GATEWAY_UPSTREAM_MAX_BODY_BYTES', async () => {
    const response = await chat(strictGateway, strictClientKey, 'small-enough');
    expect(response.status).toBe(200);
  });

  it.each(['large-200', 'large-chunked-200'])(
    'answers 502 for an answer over GATEWAY_UPSTREAM_MAX_BODY_BYTES (%s)',
    async (fault) => {
      const response = await chat(strictGateway, strictClientKey, `only-${fault}`);
      expectBadGateway(response);
      expect(expectErrorResponseShape(response.json()).message).toContain(String(smallMaximumBodyBytes));
    },
  );

  it('answers 504 upstream_timeout when the vendor sends no response head within the headers timeout', async () => {
    const response = await chat(strictGateway, strictClientKey, 'only-silent');
    expect(response.status).toBe(504);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ type: 'server_error', code: 'upstream_timeout' });
  });

  it('answers 504 upstream_timeout when the body stops coming within the body timeout', async () => {
    const response = await chat(strictGateway, strictClientKey, 'only-trickle');
    expect(response.status).toBe(504);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ code: 'upstream_timeout' });
  });
});

describe('large embeddings answers, streamed through', () => {
  it.each(['embeddings-large-chunked', 'embeddings-large-with-length'])(
    'relays a 3 MiB answer byte for byte (%s)',
    async (answerKind) => {
      const response = await postRawJson(gateway, clientKey, '/v1/embeddings', {
        model: `only-${answerKind}`,
        input: 'hello',
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.text).toBe(largeEmbeddings);
    },
  );

  it('answers 502 before any byte when a large answer begins as an HTML page', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/embeddings', {
      model: 'only-embeddings-large-html',
      input: 'hello',
    });
    expectBadGateway(response);
  });

  it("cuts the client's connection when a large answer breaks after its first bytes, so it never looks complete", async () => {
    await expect(
      postRawJson(gateway, clientKey, '/v1/embeddings', { model: 'only-embeddings-large-cut', input: 'hello' }),
    ).rejects.toThrow();
  });
});
