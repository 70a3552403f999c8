// A key whose user has no balance cannot make the gateway read (and hold) large uploads: admission is checked
// before the body, the answer is 429 and the connection is closed, so memory stays flat. The gateway runs in a
// process of its own, so its resident memory is measured alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { startGatewayProcess, type GatewayProcess } from './gateway-process/start-gateway-process.js';
import { exchangeRawHttp, type RawHttpExchange, type RawWrite } from './raw-http-exchange.js';

const upstreamSecret = 'sk-upstream-robustness-memory';
const fileBytes = 25 * 1024 * 1024;
const filesPerUpload = 8;
const parallelUploads = 16;
const allowedGrowthBytes = 100 * 1024 * 1024;
const boundary = 'robustness-boundary';
const chunk = Buffer.alloc(64 * 1024, 0x61);

/** The writes of one multipart upload of `files` files of `bytesPerFile` bytes; the payload is one reused buffer. */
function encodeUpload(options: {
  path: string;
  apiKey: string;
  fileField: string;
  files: number;
  bytesPerFile: number;
}): RawWrite[] {
  const modelPart = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${options.path.includes('audio') ? 'whisper-1' : 'dall-e-2'}\r\n`,
  );
  const promptPart = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\na cat\r\n`);
  const fileHeader = (index: number): Buffer =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${options.fileField}"; filename="upload-${index}.wav"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const fileHeaders = Array.from({ length: options.files }, (_, index) => fileHeader(index));
  const contentLength =
    modelPart.length +
    promptPart.length +
    closing.length +
    fileHeaders.reduce((total, header) => total + header.length + options.bytesPerFile + 2, 0);
  const writes: RawWrite[] = [
    `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${options.apiKey}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${contentLength}\r\n\r\n`,
    modelPart,
    promptPart,
  ];
  for (const header of fileHeaders) {
    writes.push(header);
    for (let sent = 0; sent < options.bytesPerFile; sent += chunk.length)
      writes.push(sent + chunk.length <= options.bytesPerFile ? chunk : chunk.subarray(0, options.bytesPerFile - sent));
    writes.push('\r\n');
  }
  writes.push(closing);
  return writes;
}

describe('large uploads from a key without balance', () => {
  let simulator: OpenAiSimulator;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
    gateway = await startGatewayProcess({
      ROBUSTNESS_UPSTREAM_URL: simulator.url,
      ROBUSTNESS_UPSTREAM_SECRET: upstreamSecret,
      ROBUSTNESS_MODELS: 'whisper-1,dall-e-2',
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await simulator?.close();
  });

  function upload(path: string, fileField: string, bytesPerFile: number): Promise<RawHttpExchange> {
    const writes = encodeUpload({
      path,
      apiKey: gateway.seed.brokeKey,
      fileField,
      files: filesPerUpload,
      bytesPerFile,
    });
    // A small upload is read whole before the answer, so its connection may stay open; a large one is cut off.
    return exchangeRawHttp({
      port: gateway.seed.port,
      writes,
      expectedResponses: 1,
      awaitClose: bytesPerFile === fileBytes,
      timeoutMs: 30_000,
    });
  }

  it('answers sixteen parallel uploads of 8 x 25 MB with 429 and closes them, without growing its memory by 100 MB', async () => {
    // Load every code path once, so the baseline includes it.
    await upload('/v1/audio/transcriptions', 'file', 1024);
    await upload('/v1/images/edits', 'image[]', 1024);
    const baseline = await gateway.residentBytes();
    const peakResetWorked = await gateway.resetPeakResident();
    let sampledPeak = baseline;
    const sampler = setInterval(() => {
      void gateway.residentBytes().then(
        (bytes) => {
          sampledPeak = Math.max(sampledPeak, bytes);
        },
        () => undefined,
      );
    }, 10);
    try {
      for (const [path, fileField] of [
        ['/v1/audio/transcriptions', 'file'],
        ['/v1/images/edits', 'image[]'],
      ] as const) {
        const exchanges = await Promise.all(
          Array.from({ length: parallelUploads }, () => upload(path, fileField, fileBytes)),
        );
        for (const exchange of exchanges) {
          expect(
            exchange.responses.map((response) => response.status),
            path,
          ).toEqual([429]);
          expect(JSON.parse(exchange.responses[0]?.body ?? '{}'), path).toMatchObject({
            error: { code: 'insufficient_quota', type: 'insufficient_quota' },
          });
          expect(exchange.responses[0]?.headers.connection, path).toBe('close');
          expect(exchange.closedByServer, path).toBe(true);
        }
      }
    } finally {
      clearInterval(sampler);
    }
    const peak = Math.max(sampledPeak, peakResetWorked ? await gateway.peakResidentBytes() : 0);
    expect(
      peak - baseline,
      `peak ${Math.round(peak / 1048576)} MB over a baseline of ${Math.round(baseline / 1048576)} MB`,
    ).toBeLessThan(allowedGrowthBytes);
    expect(simulator.requests).toHaveLength(0);
    expect(gateway.isAlive()).toBe(true);
  }, 120_000);
});
