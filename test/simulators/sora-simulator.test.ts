import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { soraVideoAdapter } from '../../src/providers/video/sora/sora-video-adapter.js';
import type { VideoGenerationJob } from '../../src/providers/video/video-vendor-adapter.js';
import { readMovieDurationSeconds, readMp4Boxes } from './read-mp4-boxes.js';
import { sendVideoVendorRequest } from './send-video-vendor-request.js';
import { startSoraSimulator, type SoraSimulator } from './sora-simulator.js';

const apiKey = 'sk-sora-simulator';
const clockMilliseconds = 1_700_000_000_000;
let simulator: SoraSimulator;
let client: OpenAI;

beforeAll(async () => {
  simulator = await startSoraSimulator({ apiKey, pollsUntilDone: 2, clock: () => clockMilliseconds });
  client = new OpenAI({ apiKey, baseURL: simulator.url, maxRetries: 0 });
});
afterAll(() => simulator.close());
beforeEach(() => simulator.reset());

async function rejection(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof OpenAI.APIError)) throw new Error(`expected an API error, got ${String(error)}`);
  return error;
}

describe('Sora simulator', () => {
  it('creates with the SDK (multipart), moves one step per poll, and serves a real MP4 of the asked length', async () => {
    const created = await client.videos.create({
      model: 'sora-2',
      prompt: 'a red fox',
      seconds: '8',
      size: '1280x720',
    });
    expect(created).toMatchObject({
      object: 'video',
      status: 'queued',
      progress: 0,
      model: 'sora-2',
      seconds: '8',
      size: '1280x720',
      created_at: 1_700_000_000,
      completed_at: null,
      error: null,
    });
    expect(Object.keys(created).sort()).toEqual(
      [
        'completed_at',
        'created_at',
        'error',
        'expires_at',
        'id',
        'model',
        'object',
        'progress',
        'prompt',
        'remixed_from_video_id',
        'seconds',
        'size',
        'status',
      ].sort(),
    );
    expect(String(simulator.requests[0]?.headers['content-type'])).toMatch(/^multipart\/form-data/);
    expect(await client.videos.retrieve(created.id)).toMatchObject({ status: 'in_progress', progress: 50 });
    expect(await client.videos.retrieve(created.id)).toMatchObject({
      status: 'completed',
      progress: 100,
      completed_at: 1_700_000_000,
    });
    const content = await client.videos.downloadContent(created.id, { variant: 'video' });
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
    expect(readMp4Boxes(bytes).map((box) => box.type)).toEqual(['ftyp', 'moov', 'mdat']);
    expect(readMovieDurationSeconds(bytes)).toBe(8);
    expect(
      (await client.videos.downloadContent(created.id, { variant: 'thumbnail' })).headers.get('content-type'),
    ).toBe('image/webp');
  });

  it('agrees with the gateway adapter: its multipart create, poll and download all work', async () => {
    const channel = { baseUrl: simulator.url, secret: apiKey, settings: {} };
    const job: VideoGenerationJob = {
      upstreamModelId: 'sora-2-pro',
      prompt: 'a lighthouse sim-video-polls-1',
      seconds: 12,
      width: 1024,
      height: 1792,
    };
    const submitted = await sendVideoVendorRequest(soraVideoAdapter.encodeSubmit(job, channel));
    expect(submitted.status).toBe(200);
    const { vendorTaskId } = soraVideoAdapter.decodeSubmit(await submitted.text());
    expect(simulator.requests[0]?.body).toEqual({
      model: 'sora-2-pro',
      prompt: job.prompt,
      seconds: '12',
      size: '1024x1792',
    });
    const polled = await sendVideoVendorRequest(soraVideoAdapter.encodePoll(vendorTaskId, channel));
    expect(soraVideoAdapter.decodePoll(await polled.text(), job)).toEqual({
      state: 'completed',
      seconds: 12,
      contentReference: vendorTaskId,
    });
    const download = soraVideoAdapter.encodeDownload(vendorTaskId, channel, 'video');
    const video = await sendVideoVendorRequest(download!);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(readMovieDurationSeconds(Buffer.from(await video.arrayBuffer()))).toBe(12);
  });

  it('requires the channel key on every route, content download included', async () => {
    const created = await client.videos.create({ prompt: 'sim-video-polls-1 a cat' });
    await client.videos.retrieve(created.id);
    const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: simulator.url, maxRetries: 0 });
    expect((await rejection(stranger.videos.downloadContent(created.id))).status).toBe(401);
    expect((await rejection(stranger.videos.retrieve(created.id))).status).toBe(401);
    expect((await rejection(stranger.videos.create({ prompt: 'x' }))).status).toBe(401);
    expect((await client.videos.downloadContent(created.id)).status).toBe(200);
  });

  it.each([
    [{ model: 'sora-3', prompt: 'x' }, 'model'],
    [{ prompt: 'x', seconds: '5' }, 'seconds'],
    [{ model: 'sora-2', prompt: 'x', size: '1792x1024' }, 'size'],
    [{ prompt: '' }, 'prompt'],
  ])('refuses %j with a 400 naming %s', async (body, param) => {
    const error = await rejection(client.videos.create(body as OpenAI.VideoCreateParams));
    expect(error.status).toBe(400);
    expect((error.error as { param?: string }).param).toBe(param);
  });

  it('fails, filters (moderation_blocked), or never finishes as the prompt asks', async () => {
    const failed = await client.videos.create({ prompt: 'sim-video-fail' });
    await client.videos.retrieve(failed.id);
    expect(await client.videos.retrieve(failed.id)).toMatchObject({
      status: 'failed',
      error: { code: 'video_generation_failed' },
    });
    const filtered = await client.videos.create({ prompt: 'sim-video-filtered sim-video-polls-1' });
    expect(await client.videos.retrieve(filtered.id)).toMatchObject({
      status: 'failed',
      error: { code: 'moderation_blocked' },
    });
    const endless = await client.videos.create({ prompt: 'sim-video-never' });
    for (let poll = 0; poll < 5; poll++) expect((await client.videos.retrieve(endless.id)).status).toBe('in_progress');
    expect((await rejection(client.videos.downloadContent(endless.id))).status).toBe(404);
  });

  it('answers 429 or 500 on create, or on the first poll only, as the prompt asks', async () => {
    const limited = await rejection(client.videos.create({ prompt: 'sim-video-submit-429' }));
    expect(limited.status).toBe(429);
    expect(limited.headers?.get('retry-after')).toBe('1');
    expect((await rejection(client.videos.create({ prompt: 'sim-video-submit-500' }))).status).toBe(500);
    const flaky = await client.videos.create({ prompt: 'sim-video-poll-500 sim-video-polls-1' });
    expect((await rejection(client.videos.retrieve(flaky.id))).status).toBe(500);
    expect((await client.videos.retrieve(flaky.id)).status).toBe('completed');
    const slowedDown = await client.videos.create({ prompt: 'sim-video-poll-429 sim-video-polls-1' });
    expect((await rejection(client.videos.retrieve(slowedDown.id))).status).toBe(429);
    expect((await client.videos.retrieve(slowedDown.id)).status).toBe('completed');
  });

  it('answers 404 for an unknown id and deletes only finished videos', async () => {
    expect((await rejection(client.videos.retrieve('video_unknown'))).status).toBe(404);
    const running = await client.videos.create({ prompt: 'a dog' });
    expect((await rejection(client.videos.delete(running.id))).status).toBe(400);
    await client.videos.retrieve(running.id);
    await client.videos.retrieve(running.id);
    expect(await client.videos.delete(running.id)).toEqual({ id: running.id, object: 'video.deleted', deleted: true });
    expect((await rejection(client.videos.retrieve(running.id))).status).toBe(404);
  });
});
