// Every malformed multipart upload is the client's 400 in OpenAI's shape, never a 500: a part with thousands of
// headers, a header line longer than busboy reads, a missing or wrong boundary, a body cut short, a part with no
// Content-Disposition. Sent over raw sockets, since no form encoder writes these bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { exchangeRawHttp } from './raw-http-exchange.js';

const upstreamSecret = 'sk-upstream-multipart';

/** A transcription upload whose body is `body` under the boundary `boundary` of the Content-Type. */
function uploadHead(apiKey: string, body: string | Buffer, contentType = 'multipart/form-data; boundary=b'): string {
  return `POST /v1/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
}

const modelPart = '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n';
const filePartHead =
  '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n';

/** Malformed bodies, by what is wrong with them. */
const malformed: Array<[name: string, body: string, contentType?: string]> = [
  [
    'a text part with 3,000 header lines before its Content-Disposition',
    `${'--b\r\n'}${'X-Extra: 1\r\n'.repeat(3_000)}Content-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--b--\r\n`,
  ],
  [
    'a file part with 3,000 header lines before its Content-Disposition',
    `${modelPart}--b\r\n${'X-Extra: 1\r\n'.repeat(3_000)}Content-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\r\n--b--\r\n`,
  ],
  [
    'a part header block of 100 KB',
    `${modelPart}--b\r\nX-Long: ${'a'.repeat(100_000)}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\r\n--b--\r\n`,
  ],
  ['a body cut before its closing boundary', `${modelPart}${filePartHead}\r\nRIFF`],
  ['a body cut inside a part header', `${modelPart}--b\r\nContent-Disposition: form-da`],
  ['a boundary the body does not use', `${modelPart}--b--\r\n`, 'multipart/form-data; boundary=other'],
  ['no boundary parameter', `${modelPart}--b--\r\n`, 'multipart/form-data'],
  ['an empty boundary', `${modelPart}--b--\r\n`, 'multipart/form-data; boundary='],
  ['a part without Content-Disposition', `--b\r\nContent-Type: text/plain\r\n\r\nwhisper-1\r\n--b--\r\n`],
  ['a part header without a colon', `--b\r\nContent-Disposition form-data; name="model"\r\n\r\nwhisper-1\r\n--b--\r\n`],
  ['nothing but the closing boundary', '--b--\r\n'],
  ['garbage instead of parts', 'this is not a form at all'],
];

describe('malformed multipart uploads', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;
  let apiKey: string;
  let port: number;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
    gateway = await startTestGateway();
    await gateway.createChannel({ baseUrl: simulator.url, secret: upstreamSecret, models: ['whisper-1'] });
    apiKey = (await gateway.createKey()).secret;
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  it('serves a well-formed part with 3,000 extra header lines (busboy reads the first 2,000 and its name is among them)', async () => {
    const body = `${modelPart}${filePartHead}${'X-Extra: 1\r\n'.repeat(3_000)}\r\nRIFF\r\n--b--\r\n`;
    const exchange = await exchangeRawHttp({
      port,
      writes: [uploadHead(apiKey, body), body],
      expectedResponses: 1,
      timeoutMs: 10_000,
    });
    expect(exchange.responses[0]?.status).toBe(200);
  });

  it.each(malformed)('answers %s with 400 invalid_request_error', async (_name, body, contentType) => {
    const exchange = await exchangeRawHttp({
      port,
      writes: [uploadHead(apiKey, body, contentType), body],
      expectedResponses: 1,
      timeoutMs: 10_000,
    });
    const answer = exchange.responses[0];
    expect(answer?.status, answer?.body).toBe(400);
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});
