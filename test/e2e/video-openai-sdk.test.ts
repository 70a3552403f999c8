// The official `openai` SDK's `client.videos` against the gateway's OpenAI surface, over an in-test task service:
// what the SDK sends (multipart create, Accept: application/binary downloads, cursor paging) is what the gateway takes.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import {
  createVideoTaskServiceDouble,
  doubleThumbnailBytes,
  doubleVideoBytes,
  type VideoTaskServiceDouble,
} from './video-task-service-double.js';
import { startVideoRouteGateway, type VideoRouteGateway } from './video-route-gateway.js';

const nowMs = Date.UTC(2026, 0, 15, 12, 0, 0);

let gateway: TestGateway;
let videoGateway: VideoRouteGateway;
let videoTasks: VideoTaskServiceDouble;
let client: OpenAI;
let otherClient: OpenAI;

async function rejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.createChannel({
    baseUrl: 'http://127.0.0.1:9/v1',
    secret: 'sk-unused',
    models: ['sora-2', 'sora-2-landscape'],
  });
  videoTasks = createVideoTaskServiceDouble(() => nowMs);
  videoGateway = await startVideoRouteGateway(gateway, { videoTasks, clock: () => nowMs });
  client = createOpenAiClient(videoGateway, (await gateway.createKey({ user: await gateway.createUser() })).secret);
  otherClient = createOpenAiClient(
    videoGateway,
    (await gateway.createKey({ user: await gateway.createUser() })).secret,
  );
});

afterAll(async () => {
  await videoGateway?.close();
  await gateway?.close();
});

describe('client.videos of the official SDK', () => {
  it('create sends multipart and gets a Video with every field; retrieve follows its states', async () => {
    const created = await client.videos.create({
      prompt: 'a paper boat on a river',
      model: 'sora-2-landscape',
      seconds: '8',
      size: '1280x720',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^task_/),
      object: 'video',
      model: 'sora-2-landscape',
      status: 'queued',
      progress: 0,
      created_at: nowMs / 1000,
      completed_at: null,
      expires_at: nowMs / 1000 + 86_400,
      prompt: 'a paper boat on a river',
      size: '1280x720',
      seconds: '8',
      remixed_from_video_id: null,
      error: null,
    });
    expect(videoTasks.submissions.at(-1)).toMatchObject({
      surface: 'openai',
      requestedSeconds: 8,
      size: { width: 1280, height: 720 },
    });
    videoTasks.update(created.id, { state: 'in-progress', progress: 30 });
    expect(await client.videos.retrieve(created.id)).toMatchObject({ status: 'in_progress', progress: 30 });
    videoTasks.update(created.id, {
      state: 'failed',
      error: { code: 'content_filtered', message: 'refused by the content filter' },
    });
    expect(await client.videos.retrieve(created.id)).toMatchObject({
      status: 'failed',
      error: { code: 'content_filtered', message: 'refused by the content filter' },
    });
  });

  it('create with only a prompt uses sora-2 and 4 seconds', async () => {
    expect(await client.videos.create({ prompt: 'a snail racing' })).toMatchObject({
      model: 'sora-2',
      seconds: '4',
      size: '720x1280',
    });
  });

  it('downloadContent returns the MP4 bytes, and the thumbnail as WebP', async () => {
    const created = await client.videos.create({ prompt: 'fireflies' });
    videoTasks.update(created.id, { state: 'completed', progress: 100, completedAt: nowMs / 1000 + 60 });
    const video = await client.videos.downloadContent(created.id);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await video.arrayBuffer());
    expect(bytes.equals(doubleVideoBytes)).toBe(true);
    expect(bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
    const thumbnail = await client.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(doubleThumbnailBytes)).toBe(true);
  });

  it("list pages through every video with the SDK's cursor (after = last_id)", async () => {
    const lister = createOpenAiClient(
      videoGateway,
      (await gateway.createKey({ user: await gateway.createUser() })).secret,
    );
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await lister.videos.create({ prompt: `clip ${index}` })).id);
    const seen: string[] = [];
    for await (const video of lister.videos.list({ limit: 2 })) seen.push(video.id);
    expect(seen).toEqual([...ids].reverse());
    const ascending: string[] = [];
    for await (const video of lister.videos.list({ limit: 3, order: 'asc' })) ascending.push(video.id);
    expect(ascending).toEqual(ids);
    const firstPage = await lister.videos.list({ limit: 2 });
    expect(firstPage.has_more).toBe(true);
    expect(firstPage.last_id).toBe(ids[3]);
  });

  it('delete removes a finished video; another user cannot see or delete it', async () => {
    const created = await client.videos.create({ prompt: 'a comet' });
    videoTasks.update(created.id, { state: 'completed', progress: 100 });
    expect((await rejectionOf(otherClient.videos.retrieve(created.id))).status).toBe(404);
    expect((await rejectionOf(otherClient.videos.delete(created.id))).status).toBe(404);
    expect(await client.videos.delete(created.id)).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    const gone = await rejectionOf(client.videos.retrieve(created.id));
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('remix, edit, extend and characters are refused as unsupported with a 400', async () => {
    const created = await client.videos.create({ prompt: 'a fox' });
    const attempts: Array<Promise<unknown>> = [
      client.videos.remix(created.id, { prompt: 'a fox at night' }),
      client.videos.getCharacter('char_1'),
    ];
    for (const attempt of attempts) {
      const error = await rejectionOf(attempt);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.message).toMatch(/not supported/);
    }
  });

  it('a validation error reaches the SDK as a BadRequestError naming the parameter', async () => {
    const error = await rejectionOf(client.videos.create({ prompt: 'x', size: '640x480' as '720x1280' }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe('size');
  });
});
