// Every answer the server produces to a bad request is OpenAI's error shape with the right status and code:
// errors of the HTTP parser, bad paths, unknown routes, wrong methods, wrong content types, size limits and every
// malformed multipart form. A connection whose request body was not read is closed after the answer; one whose
// body was read stays usable, and pipelined requests are answered in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import { createWav } from '../helpers/create-wav.js';
import { encodeRawRequest, exchangeRawHttp, type RawHttpExchange, type RawWrite } from './raw-http-exchange.js';

const bodyLimitBytes = 64 * 1024;
const uploadLimitBytes = 32 * 1024;

describe('answers to bad requests', () => {
  let setup: SimulatedGateway;
  let port: number;
  let auth: Record<string, string>;

  beforeAll(async () => {
    setup = await startSimulatedGateway({
      channelSecret: 'sk-upstream-answers',
      models: ['gpt-4o', 'whisper-1', 'dall-e-2'],
      gateway: { config: { bodyLimitBytes, uploadLimitBytes } },
    });
    port = Number(new URL(setup.gateway.url).port);
    auth = { authorization: `Bearer ${setup.clientKey}` };
  });
  afterAll(() => setup?.close());

  function send(writes: RawWrite[], expectedResponses = 1): Promise<RawHttpExchange> {
    return exchangeRawHttp({ port, writes, expectedResponses, awaitClose: false, keepOpen: true });
  }

  function expectError(
    exchange: RawHttpExchange,
    status: number,
    code: string,
    options: { param?: string | null; closes?: boolean } = {},
  ): void {
    exchange.socket?.destroy();
    const response = exchange.responses[0];
    expect(response?.status).toBe(status);
    expect(response?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response?.body ?? '{}')).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: options.param ?? null, code },
    });
    if (options.closes !== undefined) expect(response?.headers.connection === 'close').toBe(options.closes);
  }

  const post = (path: string, contentType: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    encodeRawRequest({ method: 'POST', path, headers: { ...auth, 'content-type': contentType, ...headers }, body });

  describe('errors of the HTTP parser', () => {
    it.each([
      ['an invalid request line', 'GARBAGE\r\n\r\n'],
      ['an invalid method', 'G@T /v1/models HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
      [
        'two different Content-Lengths',
        'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      ],
      [
        'bad chunked framing',
        'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      ],
      [
        'Content-Length with Transfer-Encoding',
        'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n',
      ],
    ])('answers %s with 400 and closes', async (_name, bytes) => {
      const exchange = await exchangeRawHttp({ port, writes: [bytes], expectedResponses: 1, awaitClose: true });
      expectError(exchange, 400, 'invalid_request_error', { closes: true });
      expect(exchange.closedByServer).toBe(true);
    });

    it('answers a header block over the limit with 431', async () => {
      const exchange = await exchangeRawHttp({
        port,
        writes: [
          encodeRawRequest({ method: 'GET', path: '/v1/models', headers: { ...auth, 'x-large': 'a'.repeat(70_000) } }),
        ],
        expectedResponses: 1,
        awaitClose: true,
      });
      expectError(exchange, 431, 'headers_too_large', { closes: true });
    });

    it('answers a CONNECT request with 405 instead of dropping the connection', async () => {
      const exchange = await exchangeRawHttp({
        port,
        writes: ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
        expectedResponses: 1,
        awaitClose: true,
      });
      expectError(exchange, 405, 'method_not_allowed', { closes: true });
    });

    it('answers a request without Host itself (Node would send an empty 400)', async () => {
      const exchange = await send(['GET /v1/models HTTP/1.1\r\n\r\n']);
      expectError(exchange, 401, 'invalid_api_key');
    });

    it('answers pipelined requests in order when a later one cannot be parsed', async () => {
      const valid = encodeRawRequest({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'first' }] }),
      });
      const exchange = await exchangeRawHttp({
        port,
        writes: [
          Buffer.concat([
            valid,
            encodeRawRequest({ method: 'GET', path: '/v1/models', headers: auth }),
            Buffer.from('GARBAGE\r\n\r\n'),
          ]),
        ],
        expectedResponses: 3,
        awaitClose: true,
      });
      expect(exchange.responses.map((response) => response.status)).toEqual([200, 200, 400]);
      expect(exchange.responses[0]?.body).toContain('Echo: first');
      expect(exchange.responses[1]?.body).toContain('"object":"list"');
      expect(exchange.closedByServer).toBe(true);
    });
  });

  describe('paths and methods', () => {
    it.each(['/v1/models/%E0%A4%A', '/v1/mo%zzdels', '/v1/models/%'])(
      'answers the bad percent-encoding of %s with 400',
      async (path) => {
        expectError(
          await send([encodeRawRequest({ method: 'GET', path, headers: auth })]),
          400,
          'invalid_request_error',
        );
      },
    );

    it('answers a model id that decodes to a lone % with 404, not 500', async () => {
      const exchange = await send([encodeRawRequest({ method: 'GET', path: '/v1/models/a%25%04z', headers: auth })]);
      exchange.socket?.destroy();
      expect(exchange.responses[0]?.status).toBe(404);
      expect(JSON.parse(exchange.responses[0]?.body ?? '{}')).toMatchObject({
        error: { code: 'model_not_found', param: 'model' },
      });
    });

    it('answers an unknown path with 404 and a known path with another method with 405 and Allow', async () => {
      expectError(
        await send([encodeRawRequest({ method: 'GET', path: '/v1/nothing', headers: auth })]),
        404,
        'not_found',
      );
      const wrongMethod = await send([
        encodeRawRequest({ method: 'GET', path: '/v1/chat/completions', headers: auth }),
      ]);
      expectError(wrongMethod, 405, 'method_not_allowed');
      expect(wrongMethod.responses[0]?.headers.allow).toBe('POST');
      const deleteModels = await send([encodeRawRequest({ method: 'DELETE', path: '/v1/models', headers: auth })]);
      expectError(deleteModels, 405, 'method_not_allowed');
      expect(deleteModels.responses[0]?.headers.allow).toBe('GET, HEAD');
    });

    it('answers an unknown path before reading the body it announces, and closes', async () => {
      const exchange = await exchangeRawHttp({
        port,
        writes: [
          `POST /v1/unknown HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"a":`,
        ],
        expectedResponses: 1,
        awaitClose: true,
      });
      expectError(exchange, 404, 'not_found', { closes: true });
      expect(exchange.closedByServer).toBe(true);
    });
  });

  describe('content types and sizes', () => {
    it('answers a multipart body to a JSON endpoint and a JSON body to an upload endpoint with 415', async () => {
      expectError(
        await send([post('/v1/chat/completions', 'multipart/form-data; boundary=b', '--b--\r\n')]),
        415,
        'unsupported_media_type',
      );
      expectError(
        await send([post('/v1/audio/transcriptions', 'application/json', '{"model":"whisper-1"}')]),
        415,
        'unsupported_media_type',
      );
      expectError(await send([post('/v1/chat/completions', 'text/xml', '<a/>')]), 415, 'unsupported_media_type');
    });

    it('answers a JSON body over the limit with 413 and closes', async () => {
      const exchange = await exchangeRawHttp({
        port,
        writes: [post('/v1/chat/completions', 'application/json', `{"model":"${'m'.repeat(bodyLimitBytes)}"}`)],
        expectedResponses: 1,
        awaitClose: true,
      });
      expectError(exchange, 413, 'request_too_large', { closes: true });
    });

    it('answers an upload over the limit with 413', async () => {
      const form = multipartForm([
        ['model', 'whisper-1'],
        ['file', Buffer.alloc(uploadLimitBytes + 1, 1), 'big.wav'],
      ]);
      expectError(
        await send([post('/v1/audio/transcriptions', 'multipart/form-data; boundary=b', form)]),
        413,
        'request_too_large',
      );
    });

    it('answers JSON nested thousands deep in a field passed to the vendor with 400, before any vendor sees it', async () => {
      setup.simulator.reset();
      const body = `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
      expectError(await send([post('/v1/chat/completions', 'application/json', body)]), 400, 'invalid_request_error');
      expect(setup.simulator.requests).toHaveLength(0);
    });

    it('keeps a connection whose bad JSON body was read whole, and answers the next request on it', async () => {
      const first = await send([post('/v1/chat/completions', 'application/json', '{"model":')]);
      expect(first.responses[0]?.status).toBe(400);
      expect(first.responses[0]?.headers.connection).not.toBe('close');
      const followUp = await exchangeRawHttp({
        port,
        socket: first.socket,
        writes: [encodeRawRequest({ method: 'GET', path: '/v1/models', headers: auth })],
        expectedResponses: 1,
      });
      expect(followUp.responses[0]?.status).toBe(200);
    });

    it('closes a connection after refusing a request whose body it did not read', async () => {
      const exchange = await exchangeRawHttp({
        port,
        writes: [
          `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"model":`,
        ],
        expectedResponses: 1,
        awaitClose: true,
      });
      expectError(exchange, 401, 'invalid_api_key', { closes: true });
      expect(exchange.closedByServer).toBe(true);
    });
  });

  // The linger keeps reading after the answer; what it reads must never be served.
  it('serves nothing more on a connection it is closing, even if the client goes on sending requests', async () => {
    setup.simulator.reset();
    const chat = encodeRawRequest({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'late' }] }),
    });
    const exchange = await exchangeRawHttp({
      port,
      // Refused (no key) before its body arrived; then the rest of the body and a valid request.
      writes: [
        'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"',
        { pauseMs: 100 },
        Buffer.concat([Buffer.from('a":1'), chat]),
      ],
      expectedResponses: 2,
      awaitClose: true,
    });
    expect(exchange.responses.map((response) => response.status)).toEqual([401]);
    expect(exchange.closedByServer).toBe(true);
    expect(setup.simulator.requests).toHaveLength(0);
  });

  describe('malformed multipart forms', () => {
    const audio = createWav(0.1);
    const upload = (contentType: string, body: Buffer) => send([post('/v1/audio/transcriptions', contentType, body)]);

    it('answers a form without a boundary with 400', async () => {
      expectError(
        await upload(
          'multipart/form-data',
          multipartForm([
            ['model', 'whisper-1'],
            ['file', audio, 'a.wav'],
          ]),
        ),
        400,
        'invalid_request_error',
      );
    });

    it('answers a form cut off in a part with 400', async () => {
      const form = multipartForm([
        ['model', 'whisper-1'],
        ['file', audio, 'a.wav'],
      ]);
      expectError(
        await upload('multipart/form-data; boundary=b', form.subarray(0, form.length - 200)),
        400,
        'invalid_request_error',
      );
    });

    it('answers a form without its file with 400 naming it', async () => {
      expectError(
        await upload('multipart/form-data; boundary=b', multipartForm([['model', 'whisper-1']])),
        400,
        'invalid_request_error',
        { param: 'file' },
      );
    });

    it('answers a form with too many parts or files with 400', async () => {
      const fields = Array.from({ length: 100 }, (_, index): FormEntry => [`field${index}`, 'x']);
      expectError(
        await upload('multipart/form-data; boundary=b', multipartForm([['model', 'whisper-1'], ...fields])),
        400,
        'invalid_request_error',
      );
      const files = Array.from({ length: 9 }, (): FormEntry => ['file', audio, 'a.wav']);
      expectError(
        await upload('multipart/form-data; boundary=b', multipartForm([['model', 'whisper-1'], ...files])),
        400,
        'invalid_request_error',
      );
    });

    it('answers a text field over the field size limit with 400 naming it', async () => {
      const form = multipartForm([
        ['model', 'whisper-1'],
        ['prompt', 'p'.repeat(1024 * 1024 + 1)],
        ['file', audio, 'a.wav'],
      ]);
      expectError(await upload('multipart/form-data; boundary=b', form), 400, 'invalid_request_error', {
        param: 'prompt',
      });
    });
  });
});

/** A form field (name, value) or file (name, bytes, filename). */
type FormEntry = [name: string, value: string | Buffer, filename?: string];

/** A multipart/form-data body with boundary `b`. */
function multipartForm(entries: FormEntry[]): Buffer {
  const parts = entries.map(([name, value, filename]) =>
    Buffer.concat([
      Buffer.from(
        `--b\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: application/octet-stream` : ''}\r\n\r\n`,
      ),
      Buffer.from(value),
      Buffer.from('\r\n'),
    ]),
  );
  return Buffer.concat([...parts, Buffer.from('--b--\r\n')]);
}
