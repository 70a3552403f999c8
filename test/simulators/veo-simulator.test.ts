import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { VideoGenerationJob } from '../../src/providers/video/video-vendor-adapter.js';
import { veoVideoAdapter } from '../../src/providers/video/veo/veo-video-adapter.js';
import { readMovieDurationSeconds, readMp4Boxes } from './read-mp4-boxes.js';
import { sendVideoVendorRequest } from './send-video-vendor-request.js';
import { startVeoSimulator, type VeoSimulator } from './veo-simulator.js';

const apiKey = 'AIza-veo-simulator';
const model = 'veo-3.0-generate-001';
let simulator: VeoSimulator;

beforeAll(async () => {
  simulator = await startVeoSimulator({ apiKey, pollsUntilDone: 2 });
});
afterAll(() => simulator.close());
beforeEach(() => simulator.reset());

/** `key` null sends no key header at all. */
function submit(body: unknown, key: string | null = apiKey, modelName = model): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(key === null ? {} : { 'x-goog-api-key': key }),
  };
  return fetch(`${simulator.url}/models/${modelName}:predictLongRunning`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

function poll(name: string, key = apiKey): Promise<Response> {
  return fetch(`${simulator.url}/${name}`, { headers: { 'x-goog-api-key': key } });
}

async function start(prompt: string, parameters: Record<string, unknown> = {}): Promise<string> {
  const answer = await submit({
    instances: [{ prompt }],
    parameters: { durationSeconds: 6, aspectRatio: '9:16', ...parameters },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { name: string }).name;
}

describe('Veo simulator', () => {
  it('starts an operation, reports it running without done, then done with a sample whose file is a real MP4', async () => {
    const name = await start('a red fox');
    expect(name).toMatch(/^models\/veo-3\.0-generate-001\/operations\/[a-z0-9]+$/);
    expect(await (await poll(name)).json()).toEqual({ name });
    const done = (await (await poll(name)).json()) as {
      done: boolean;
      response: { generateVideoResponse: { generatedSamples: Array<{ video: { uri: string } }> } };
    };
    expect(done.done).toBe(true);
    const uri = done.response.generateVideoResponse.generatedSamples[0]?.video.uri ?? '';
    expect(uri.startsWith(`${new URL(simulator.url).origin}/v1beta/files/`)).toBe(true);
    const video = await fetch(uri, { headers: { 'x-goog-api-key': apiKey } });
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await video.arrayBuffer());
    expect(readMp4Boxes(bytes).map((box) => box.type)).toEqual(['ftyp', 'moov', 'mdat']);
    expect(readMovieDurationSeconds(bytes)).toBe(6);
  });

  it('agrees with the gateway adapter: submit, poll, and download with the channel key', async () => {
    const channel = { baseUrl: simulator.url, secret: apiKey, settings: {} };
    const job: VideoGenerationJob = {
      upstreamModelId: model,
      prompt: 'a lighthouse sim-video-polls-1',
      seconds: 8,
      width: 1280,
      height: 720,
    };
    const submitted = await sendVideoVendorRequest(veoVideoAdapter.encodeSubmit(job, channel));
    expect(submitted.status).toBe(200);
    const { vendorTaskId } = veoVideoAdapter.decodeSubmit(await submitted.text());
    expect(simulator.requests[0]?.body).toEqual({
      instances: [{ prompt: job.prompt }],
      parameters: { aspectRatio: '16:9', durationSeconds: 8, resolution: '720p', sampleCount: 1 },
    });
    const status = veoVideoAdapter.decodePoll(
      await (await sendVideoVendorRequest(veoVideoAdapter.encodePoll(vendorTaskId, channel))).text(),
      job,
    );
    if (status.state !== 'completed') throw new Error(`expected completed, got ${status.state}`);
    const video = await sendVideoVendorRequest(
      veoVideoAdapter.encodeDownload(status.contentReference, channel, 'video')!,
    );
    expect(readMovieDurationSeconds(Buffer.from(await video.arrayBuffer()))).toBe(8);
  });

  it('requires the key on every route, the video download included', async () => {
    expect((await submit({ instances: [{ prompt: 'x' }] }, null)).status).toBe(403);
    const wrongKey = await submit({ instances: [{ prompt: 'x' }] }, 'AIza-wrong');
    expect(wrongKey.status).toBe(400);
    expect(JSON.stringify(await wrongKey.json())).toContain('API_KEY_INVALID');
    const name = await start('sim-video-polls-1 a cat');
    expect((await poll(name, 'AIza-wrong')).status).toBe(400);
    const uri =
      (
        (await (await poll(name)).json()) as {
          response: { generateVideoResponse: { generatedSamples: Array<{ video: { uri: string } }> } };
        }
      ).response.generateVideoResponse.generatedSamples[0]?.video.uri ?? '';
    expect((await fetch(uri)).status).toBe(403);
    expect((await fetch(uri, { headers: { 'x-goog-api-key': apiKey } })).status).toBe(200);
  });

  it.each([
    [{ instances: [{ prompt: 'x' }], parameters: { durationSeconds: 5 } }, 'durationSeconds'],
    [{ instances: [{ prompt: 'x' }], parameters: { aspectRatio: '1:1' } }, 'Aspect ratio'],
    [{ instances: [{ prompt: 'x' }], parameters: { generateAudio: true } }, 'generateAudio'],
    [{ instances: [{ prompt: 'x' }], parameters: { seed: 7 } }, 'seed'],
    [{ instances: [{ prompt: 'x' }], parameters: { resolution: '1080p', aspectRatio: '9:16' } }, '1080p'],
    [{ instances: [{ prompt: '' }] }, 'prompt'],
    [{ instances: [] }, 'instances'],
  ])('refuses %j with a 400 mentioning %s', async (body, mention) => {
    const answer = await submit(body);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string; status: string } }).error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining(mention),
    });
  });

  it('answers 404 for a model it does not serve and for an unknown operation', async () => {
    expect((await submit({ instances: [{ prompt: 'x' }] }, apiKey, 'veo-9')).status).toBe(404);
    expect((await poll(`models/${model}/operations/unknown`)).status).toBe(404);
  });

  it('fails with an error, filters with raiMediaFilteredCount, or never finishes, as the prompt asks', async () => {
    const failed = await start('sim-video-fail sim-video-polls-1');
    expect(await (await poll(failed)).json()).toMatchObject({ done: true, error: { code: 13 } });
    const filtered = await start('sim-video-filtered sim-video-polls-1');
    const filteredBody = (await (await poll(filtered)).json()) as {
      done: boolean;
      response: { generateVideoResponse: Record<string, unknown> };
    };
    expect(filteredBody.done).toBe(true);
    expect(filteredBody.response.generateVideoResponse).toMatchObject({ raiMediaFilteredCount: 1 });
    expect(filteredBody.response.generateVideoResponse.generatedSamples).toBeUndefined();
    const endless = await start('sim-video-never');
    for (let read = 0; read < 5; read++) expect(await (await poll(endless)).json()).toEqual({ name: endless });
  });

  it('names a video on a foreign origin when asked, which the adapter refuses to download', async () => {
    const name = await start('sim-video-foreign-uri sim-video-polls-1');
    const job: VideoGenerationJob = { upstreamModelId: model, prompt: 'x', seconds: 6, width: 720, height: 1280 };
    const status = veoVideoAdapter.decodePoll(await (await poll(name)).text(), job);
    if (status.state !== 'completed') throw new Error('expected completed');
    expect(() =>
      veoVideoAdapter.encodeDownload(
        status.contentReference,
        { baseUrl: simulator.url, secret: apiKey, settings: {} },
        'video',
      ),
    ).toThrow(GatewayError);
  });

  it('answers 429 or 500 on submit, or on the first poll only, as the prompt asks', async () => {
    expect((await submit({ instances: [{ prompt: 'sim-video-submit-429' }] })).status).toBe(429);
    expect((await submit({ instances: [{ prompt: 'sim-video-submit-500' }] })).status).toBe(500);
    const flaky = await start('sim-video-poll-429 sim-video-polls-1');
    expect((await poll(flaky)).status).toBe(429);
    expect(await (await poll(flaky)).json()).toMatchObject({ done: true });
    const broken = await start('sim-video-poll-500 sim-video-polls-1');
    expect((await poll(broken)).status).toBe(500);
    expect(await (await poll(broken)).json()).toMatchObject({ done: true });
  });
});
