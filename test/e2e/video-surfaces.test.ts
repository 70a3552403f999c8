// Both video surfaces over an in-test VideoTaskService: what each validates, how each shows every task state, paging,
// the signed content URL, and the 503 of a gateway built without video tasks. Raw HTTP, so every byte is checked.
import { FormData, request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { undiciTestAgent } from '../helpers/undici-test-agent.js';
import {
  createVideoTaskServiceDouble,
  doubleThumbnailBytes,
  doubleVideoBytes,
  type VideoTaskServiceDouble,
} from './video-task-service-double.js';
import { startVideoRouteGateway, type VideoRouteGateway } from './video-route-gateway.js';

const startMs = Date.UTC(2026, 0, 15, 12, 0, 0);
let nowMs = startMs;
const clock = () => nowMs;

let gateway: TestGateway;
let videoGateway: VideoRouteGateway;
let withoutVideo: VideoRouteGateway;
let videoTasks: VideoTaskServiceDouble;
let ownerKey: string;
let otherUsersKey: string;
let chatOnlyKey: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): Record<string, unknown>;
}

async function send(
  target: VideoRouteGateway,
  path: string,
  options: { method?: 'GET' | 'POST' | 'DELETE'; key?: string | null; json?: unknown; form?: FormData } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? ownerKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await request(target.url + path, {
    method: options.method ?? (options.json !== undefined || options.form ? 'POST' : 'GET'),
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : options.form,
    dispatcher: undiciTestAgent,
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    headers: response.headers,
    body,
    json: () => JSON.parse(body.toString('utf8')) as Record<string, unknown>,
  };
}

function errorOf(answer: Answer): { message: string; type: string; param: string | null; code: string | null } {
  return (answer.json() as { error: { message: string; type: string; param: string | null; code: string | null } })
    .error;
}

async function expectInvalid(answer: Promise<Answer>, param: string | null, messagePattern?: RegExp): Promise<void> {
  const settled = await answer;
  expect(settled.status, settled.body.toString()).toBe(400);
  const error = errorOf(settled);
  expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_error', param });
  if (messagePattern) expect(error.message).toMatch(messagePattern);
}

async function submitSpecTask(body: Record<string, unknown> = {}): Promise<string> {
  const answer = await send(videoGateway, '/v1/videos/generations', {
    json: { model: 'sora-2', prompt: 'a cat on a skateboard', async: true, ...body },
  });
  expect(answer.status, answer.body.toString()).toBe(200);
  return answer.json().id as string;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  // Nothing listens there: the double never calls a vendor, the channel only makes the models routable.
  await gateway.createChannel({
    baseUrl: 'http://127.0.0.1:9/v1',
    secret: 'sk-unused',
    models: ['sora-2', 'sora-2-landscape', 'gpt-4o-mini'],
  });
  ownerKey = (await gateway.createKey()).secret;
  otherUsersKey = (await gateway.createKey({ user: await gateway.createUser() })).secret;
  chatOnlyKey = (await gateway.createKey({ models: ['gpt-4o-mini'] })).secret;
  videoTasks = createVideoTaskServiceDouble(clock);
  videoGateway = await startVideoRouteGateway(gateway, { videoTasks, clock });
  withoutVideo = await startVideoRouteGateway(gateway, { clock });
});

afterAll(async () => {
  await videoGateway?.close();
  await withoutVideo?.close();
  await gateway?.close();
});

beforeEach(() => {
  nowMs = startMs;
});

describe('spec surface: POST /v1/videos/generations', () => {
  it('answers exactly {id, status: pending, created_at} and hands the task layer the resolved model, 5 s by default and the request id', async () => {
    const answer = await send(videoGateway, '/v1/videos/generations', {
      json: { model: 'sora-2-landscape', prompt: 'waves at dusk', async: true },
    });
    expect(answer.status).toBe(200);
    const body = answer.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^task_/),
      status: 'pending',
      created_at: Math.floor(startMs / 1000),
    });
    const submission = videoTasks.submissions.at(-1);
    expect(submission).toMatchObject({
      prompt: 'waves at dusk',
      requestedSeconds: 5,
      surface: 'spec',
      requestId: answer.headers['x-request-id'],
    });
    expect(submission?.model.id).toBe('sora-2-landscape');
    expect(submission?.size).toBeUndefined();
  });

  it.each([5, 10, 15, 20])('accepts duration %i and passes it on as asked', async (duration) => {
    await submitSpecTask({ duration });
    expect(videoTasks.submissions.at(-1)?.requestedSeconds).toBe(duration);
  });

  it.each([[7], [0], [4], [25], ['10'], [10.5], [null]])(
    'refuses duration %j with a 400 naming duration',
    async (duration) => {
      await expectInvalid(
        send(videoGateway, '/v1/videos/generations', { json: { model: 'sora-2', prompt: 'x', async: true, duration } }),
        'duration',
        /5, 10, 15, 20/,
      );
    },
  );

  it.each([[undefined], [false], ['true'], [1]])(
    'refuses async %j: it is required and must be true',
    async (asyncValue) => {
      await expectInvalid(
        send(videoGateway, '/v1/videos/generations', {
          json: { model: 'sora-2', prompt: 'x', duration: 5, async: asyncValue },
        }),
        'async',
        /must be true/,
      );
    },
  );

  it('refuses a missing or empty prompt and a missing model, naming each', async () => {
    await expectInvalid(
      send(videoGateway, '/v1/videos/generations', { json: { model: 'sora-2', async: true } }),
      'prompt',
      /Missing required parameter/,
    );
    await expectInvalid(
      send(videoGateway, '/v1/videos/generations', { json: { model: 'sora-2', prompt: '   ', async: true } }),
      'prompt',
      /empty/,
    );
    await expectInvalid(
      send(videoGateway, '/v1/videos/generations', { json: { prompt: 'x', async: true } }),
      'model',
      /Missing required parameter/,
    );
    await expectInvalid(send(videoGateway, '/v1/videos/generations', { json: ['not an object'] }), null, /JSON object/);
  });

  it("takes only video models of the key's group: a chat model is a 400, an unknown or ungranted one a 404", async () => {
    const submitted = videoTasks.submissions.length;
    await expectInvalid(
      send(videoGateway, '/v1/videos/generations', { json: { model: 'gpt-4o-mini', prompt: 'x', async: true } }),
      'model',
      /chat model/,
    );
    const unknown = await send(videoGateway, '/v1/videos/generations', {
      json: { model: 'no-such-video', prompt: 'x', async: true },
    });
    expect([unknown.status, errorOf(unknown).code]).toEqual([404, 'model_not_found']);
    const ungranted = await send(videoGateway, '/v1/videos/generations', {
      key: chatOnlyKey,
      json: { model: 'sora-2', prompt: 'x', async: true },
    });
    expect([ungranted.status, errorOf(ungranted).code]).toEqual([404, 'model_not_found']);
    expect(videoTasks.submissions.length).toBe(submitted);
  });

  it("passes the task layer's refusal through in OpenAI's shape (429 insufficient_quota)", async () => {
    videoTasks.failNextSubmit(new GatewayError('insufficient_quota', 'Your balance cannot cover this video.'));
    const answer = await send(videoGateway, '/v1/videos/generations', {
      json: { model: 'sora-2', prompt: 'x', async: true },
    });
    expect(answer.status).toBe(429);
    expect(errorOf(answer)).toMatchObject({
      code: 'insufficient_quota',
      message: 'Your balance cannot cover this video.',
    });
  });

  it('refuses a request without a valid key with 401 before the task layer sees it', async () => {
    const answer = await send(videoGateway, '/v1/videos/generations', {
      key: 'sk-not-a-key',
      json: { model: 'sora-2', prompt: 'x', async: true },
    });
    expect([answer.status, errorOf(answer).code]).toEqual([401, 'invalid_api_key']);
  });
});

describe('spec surface: GET /v1/videos/generations/{task_id}', () => {
  it('shows a queued task as pending, with the asked duration and the generated seconds, no video_url and no error', async () => {
    const id = await submitSpecTask({ duration: 10 });
    const body = (await send(videoGateway, `/v1/videos/generations/${id}`)).json();
    expect(body).toEqual({
      id,
      status: 'pending',
      model: 'sora-2',
      prompt: 'a cat on a skateboard',
      duration: 10,
      seconds: 8,
      progress: 0,
      created_at: Math.floor(startMs / 1000),
      completed_at: null,
      expires_at: Math.floor(startMs / 1000) + 86_400,
    });
  });

  it('shows in-progress as processing with its progress', async () => {
    const id = await submitSpecTask();
    videoTasks.update(id, { state: 'in-progress', progress: 40 });
    const body = (await send(videoGateway, `/v1/videos/generations/${id}`)).json();
    expect(body).toMatchObject({ status: 'processing', progress: 40 });
    expect(body).not.toHaveProperty('video_url');
    expect(body).not.toHaveProperty('error');
  });

  it('shows completed with a signed gateway video_url that downloads the video with no API key', async () => {
    const id = await submitSpecTask();
    const completedAt = Math.floor(startMs / 1000) + 90;
    videoTasks.update(id, { state: 'completed', progress: 100, completedAt });
    const body = (await send(videoGateway, `/v1/videos/generations/${id}`)).json();
    expect(body).toMatchObject({ status: 'completed', progress: 100, completed_at: completedAt });
    expect(body).not.toHaveProperty('error');
    const videoUrl = new URL(body.video_url as string);
    expect(videoUrl.origin).toBe(videoGateway.url);
    expect(videoUrl.pathname).toBe(`/v1/videos/${id}/content`);
    expect(videoUrl.searchParams.get('expires')).toBe(String(body.expires_at));
    expect(videoUrl.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const download = await send(videoGateway, videoUrl.pathname + videoUrl.search, { key: null });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('video/mp4');
    expect(download.body.equals(doubleVideoBytes)).toBe(true);
    expect(videoTasks.contentRequests.at(-1)).toEqual({ principal: null, taskId: id, variant: 'video' });
  });

  it('shows failed with error as the safe message string and no video_url', async () => {
    const id = await submitSpecTask();
    videoTasks.update(id, {
      state: 'failed',
      completedAt: Math.floor(startMs / 1000) + 5,
      error: { code: 'content_filtered', message: "The prompt was refused by the vendor's content filter." },
    });
    const body = (await send(videoGateway, `/v1/videos/generations/${id}`)).json();
    expect(body).toMatchObject({ status: 'failed', error: "The prompt was refused by the vendor's content filter." });
    expect(body).not.toHaveProperty('video_url');
  });

  it("answers 404 for another user's task and for a task past its 24 hours, with a message saying which", async () => {
    const id = await submitSpecTask();
    const foreign = await send(videoGateway, `/v1/videos/generations/${id}`, { key: otherUsersKey });
    expect([foreign.status, errorOf(foreign).code]).toEqual([404, 'not_found']);
    nowMs = startMs + 24 * 3600 * 1000;
    const expired = await send(videoGateway, `/v1/videos/generations/${id}`);
    expect(expired.status).toBe(404);
    expect(errorOf(expired).message).toMatch(/expired/);
  });
});

describe('OpenAI surface: POST /v1/videos', () => {
  it("creates from JSON with OpenAI's defaults (sora-2, 4 seconds) and answers a VideoResource with all 13 fields", async () => {
    const answer = await send(videoGateway, '/v1/videos', { json: { prompt: 'a lighthouse in fog' } });
    expect(answer.status, answer.body.toString()).toBe(200);
    expect(answer.json()).toEqual({
      id: expect.stringMatching(/^task_/),
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      progress: 0,
      created_at: Math.floor(startMs / 1000),
      completed_at: null,
      expires_at: Math.floor(startMs / 1000) + 86_400,
      prompt: 'a lighthouse in fog',
      size: '720x1280',
      seconds: '4',
      remixed_from_video_id: null,
      error: null,
    });
    expect(videoTasks.submissions.at(-1)).toMatchObject({ requestedSeconds: 4, surface: 'openai' });
  });

  it('creates from a multipart form (as the SDK sends) with seconds and size', async () => {
    const form = new FormData();
    form.set('prompt', 'a red kite');
    form.set('model', 'sora-2-landscape');
    form.set('seconds', '12');
    form.set('size', '1792x1024');
    const answer = await send(videoGateway, '/v1/videos', { form });
    expect(answer.status, answer.body.toString()).toBe(200);
    expect(answer.json()).toMatchObject({
      model: 'sora-2-landscape',
      size: '1792x1024',
      seconds: '12',
      status: 'queued',
    });
    expect(videoTasks.submissions.at(-1)).toMatchObject({ requestedSeconds: 12, size: { width: 1792, height: 1024 } });
  });

  it('accepts any whole number of seconds from 1 to 20 (string or integer) and reports the seconds the vendor makes', async () => {
    const answer = await send(videoGateway, '/v1/videos', { json: { prompt: 'x', seconds: 10 } });
    expect(answer.json()).toMatchObject({ seconds: '8' });
    expect(videoTasks.submissions.at(-1)?.requestedSeconds).toBe(10);
    expect((await send(videoGateway, '/v1/videos', { json: { prompt: 'x', seconds: '20' } })).json()).toMatchObject({
      seconds: '12',
    });
  });

  it.each([
    ['seconds "0"', { seconds: '0' }, 'seconds'],
    ['seconds "21"', { seconds: '21' }, 'seconds'],
    ['seconds "4s"', { seconds: '4s' }, 'seconds'],
    ['seconds 4.5', { seconds: 4.5 }, 'seconds'],
    ['size 640x480', { size: '640x480' }, 'size'],
    ['an empty prompt', { prompt: '' }, 'prompt'],
    ['a prompt of 32001 characters', { prompt: 'x'.repeat(32_001) }, 'prompt'],
    ['a numeric prompt', { prompt: 42 }, 'prompt'],
    ['an empty model', { model: '' }, 'model'],
    ['an input_reference', { input_reference: { image_url: 'https://example.test/a.png' } }, 'input_reference'],
  ])('refuses %s with a 400 naming %s', async (_label, fields, param) => {
    await expectInvalid(send(videoGateway, '/v1/videos', { json: { prompt: 'x', ...fields } }), param);
  });

  it('refuses a missing prompt, a chat model, and an input_reference upload in a form', async () => {
    await expectInvalid(
      send(videoGateway, '/v1/videos', { json: { model: 'sora-2' } }),
      'prompt',
      /Missing required parameter/,
    );
    await expectInvalid(send(videoGateway, '/v1/videos', { json: { prompt: 'x', model: 'gpt-4o-mini' } }), 'model');
    const form = new FormData();
    form.set('prompt', 'x');
    form.set('input_reference', new Blob([Buffer.from('png')], { type: 'image/png' }), 'first-frame.png');
    await expectInvalid(send(videoGateway, '/v1/videos', { form }), 'input_reference', /not supported/);
    const referenceByUrl = new FormData();
    referenceByUrl.set('prompt', 'x');
    referenceByUrl.set('input_reference[image_url]', 'https://example.test/a.png');
    await expectInvalid(send(videoGateway, '/v1/videos', { form: referenceByUrl }), 'input_reference');
  });
});

describe('OpenAI surface: retrieve, list, delete', () => {
  it("renders every state with OpenAI's names: queued, in_progress, completed, failed with {code, message}", async () => {
    const id = (await send(videoGateway, '/v1/videos', { json: { prompt: 'x', seconds: '8' } })).json().id as string;
    const retrieve = async () => (await send(videoGateway, `/v1/videos/${id}`)).json();
    expect(await retrieve()).toMatchObject({ status: 'queued', error: null, completed_at: null });
    videoTasks.update(id, { state: 'in-progress', progress: 55 });
    expect(await retrieve()).toMatchObject({ status: 'in_progress', progress: 55, error: null });
    videoTasks.update(id, { state: 'completed', progress: 100, completedAt: 1_768_478_500 });
    expect(await retrieve()).toMatchObject({
      status: 'completed',
      progress: 100,
      completed_at: 1_768_478_500,
      error: null,
      seconds: '8',
    });
    videoTasks.update(id, {
      state: 'failed',
      error: { code: 'task_timeout', message: 'cancelled after 60 minutes without completion' },
    });
    expect(await retrieve()).toMatchObject({
      status: 'failed',
      error: { code: 'task_timeout', message: 'cancelled after 60 minutes without completion' },
    });
  });

  it("answers 404 for another user's video and an expired one", async () => {
    const id = (await send(videoGateway, '/v1/videos', { json: { prompt: 'x' } })).json().id as string;
    expect((await send(videoGateway, `/v1/videos/${id}`, { key: otherUsersKey })).status).toBe(404);
    nowMs = startMs + 86_400_000;
    const expired = await send(videoGateway, `/v1/videos/${id}`);
    expect(expired.status).toBe(404);
    expect(errorOf(expired).message).toMatch(/expired/);
  });

  it('pages with limit, after and order, and always sets first_id and last_id of a non-empty page', async () => {
    const pagingKey = (await gateway.createKey({ user: await gateway.createUser() })).secret;
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1)
      ids.push(
        (await send(videoGateway, '/v1/videos', { key: pagingKey, json: { prompt: `clip ${index}` } })).json()
          .id as string,
      );
    const list = async (query: string) => (await send(videoGateway, `/v1/videos${query}`, { key: pagingKey })).json();
    const newest = [...ids].reverse();
    expect(await list('?limit=2')).toMatchObject({
      object: 'list',
      first_id: newest[0],
      last_id: newest[1],
      has_more: true,
    });
    expect(((await list('?limit=2')).data as Array<{ id: string }>).map((video) => video.id)).toEqual(
      newest.slice(0, 2),
    );
    expect(
      ((await list(`?limit=2&after=${newest[1]}`)).data as Array<{ id: string }>).map((video) => video.id),
    ).toEqual(newest.slice(2, 4));
    expect(await list(`?limit=2&after=${newest[3]}`)).toMatchObject({
      first_id: newest[4],
      last_id: newest[4],
      has_more: false,
    });
    expect(((await list('?order=asc')).data as Array<{ id: string }>).map((video) => video.id)).toEqual(ids);
    expect(await list('')).toMatchObject({ has_more: false });
    expect(((await list('')).data as unknown[]).length).toBe(5);
    expect(await list('?limit=0')).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: true });
    const emptyKey = (await gateway.createKey({ user: await gateway.createUser() })).secret;
    expect((await send(videoGateway, '/v1/videos', { key: emptyKey })).json()).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
  });

  it.each([
    ['?limit=101', 'limit'],
    ['?limit=-1', 'limit'],
    ['?limit=ten', 'limit'],
    ['?order=newest', 'order'],
  ])('refuses %s with a 400 naming %s', async (query, param) => {
    await expectInvalid(send(videoGateway, `/v1/videos${query}`), param);
  });

  it('deletes a finished video ({id, object: video.deleted, deleted: true}); a running one is a 400', async () => {
    const id = (await send(videoGateway, '/v1/videos', { json: { prompt: 'x' } })).json().id as string;
    await expectInvalid(send(videoGateway, `/v1/videos/${id}`, { method: 'DELETE' }), null, /still queued/);
    videoTasks.update(id, { state: 'completed', progress: 100 });
    expect((await send(videoGateway, `/v1/videos/${id}`, { method: 'DELETE', key: otherUsersKey })).status).toBe(404);
    const deleted = await send(videoGateway, `/v1/videos/${id}`, { method: 'DELETE' });
    expect([deleted.status, deleted.json()]).toEqual([200, { id, object: 'video.deleted', deleted: true }]);
    expect((await send(videoGateway, `/v1/videos/${id}`)).status).toBe(404);
  });

  it.each([
    ['POST', '/v1/videos/task_x/remix', /remix/],
    ['POST', '/v1/videos/edits', /edits/],
    ['POST', '/v1/videos/extensions', /extensions/],
    ['POST', '/v1/videos/characters', /characters/],
    ['GET', '/v1/videos/characters/char_1', /characters/],
  ] as const)('answers %s %s with a 400 saying it is unsupported', async (method, path, pattern) => {
    const answer = await send(videoGateway, path, method === 'POST' ? { json: { prompt: 'x' } } : {});
    expect(answer.status).toBe(400);
    expect(errorOf(answer).message).toMatch(pattern);
    expect(errorOf(answer).message).toMatch(/not supported/);
  });
});

describe('GET /v1/videos/{id}/content', () => {
  async function completedTask(key = ownerKey): Promise<{ id: string; videoUrl: URL }> {
    const id = (
      await send(videoGateway, '/v1/videos/generations', { key, json: { model: 'sora-2', prompt: 'x', async: true } })
    ).json().id as string;
    videoTasks.update(id, { state: 'completed', progress: 100 });
    const status = (await send(videoGateway, `/v1/videos/generations/${id}`, { key })).json();
    return { id, videoUrl: new URL(status.video_url as string) };
  }

  it("serves the owner's key without a signature, each variant with its content type", async () => {
    const { id } = await completedTask();
    const video = await send(videoGateway, `/v1/videos/${id}/content`);
    expect([video.status, video.headers['content-type'], video.headers['content-length']]).toEqual([
      200,
      'video/mp4',
      String(doubleVideoBytes.length),
    ]);
    expect(video.body.subarray(4, 8).toString('ascii')).toBe('ftyp');
    const thumbnail = await send(videoGateway, `/v1/videos/${id}/content?variant=thumbnail`);
    expect([thumbnail.status, thumbnail.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(thumbnail.body.equals(doubleThumbnailBytes)).toBe(true);
    expect(videoTasks.contentRequests.at(-1)).toMatchObject({
      taskId: id,
      variant: 'thumbnail',
      principal: expect.objectContaining({ userId: gateway.defaultUser.id }),
    });
    await expectInvalid(send(videoGateway, `/v1/videos/${id}/content?variant=poster`), 'variant');
  });

  it("answers 404 for another user's key, and 401 with neither key nor signature", async () => {
    const { id } = await completedTask();
    expect((await send(videoGateway, `/v1/videos/${id}/content`, { key: otherUsersKey })).status).toBe(404);
    const anonymous = await send(videoGateway, `/v1/videos/${id}/content`, { key: null });
    expect([anonymous.status, errorOf(anonymous).code]).toEqual([401, 'invalid_api_key']);
  });

  it("answers 404 to a tampered signature, a changed expiry, another task's signature and an expired URL, without asking the task layer", async () => {
    const first = await completedTask();
    const second = await completedTask();
    const requestsBefore = videoTasks.contentRequests.length;
    const signature = first.videoUrl.searchParams.get('signature') ?? '';
    const expires = first.videoUrl.searchParams.get('expires') ?? '';
    const tampered = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const attempts = [
      `/v1/videos/${first.id}/content?expires=${expires}&signature=${tampered}`,
      `/v1/videos/${first.id}/content?expires=${Number(expires) + 3600}&signature=${signature}`,
      `/v1/videos/${second.id}/content?expires=${expires}&signature=${signature}`,
      `/v1/videos/${first.id}/content?expires=${expires}`,
      `/v1/videos/${first.id}/content?expires=${expires}&signature=short`,
    ];
    for (const path of attempts) {
      const answer = await send(videoGateway, path, { key: null });
      expect([answer.status, errorOf(answer).code], path).toEqual([404, 'not_found']);
    }
    nowMs = Number(expires) * 1000;
    const expired = await send(videoGateway, first.videoUrl.pathname + first.videoUrl.search, { key: null });
    expect(expired.status).toBe(404);
    expect(errorOf(expired).message).toMatch(/expired/);
    expect(videoTasks.contentRequests.length).toBe(requestsBefore);
  });

  it("serves a valid signed URL even when another user's key comes along with it", async () => {
    const { id, videoUrl } = await completedTask();
    const answer = await send(videoGateway, videoUrl.pathname + videoUrl.search, { key: otherUsersKey });
    expect(answer.status).toBe(200);
    expect(videoTasks.contentRequests.at(-1)).toEqual({ principal: null, taskId: id, variant: 'video' });
  });

  it('uses GATEWAY_PUBLIC_URL as the origin of video_url when it is set', async () => {
    const publicGateway = await startVideoRouteGateway(
      {
        ...gateway,
        config: {
          ...gateway.config,
          signIn: { publicUrl: 'https://videos.example.test', github: undefined, oidc: undefined },
        },
      },
      { videoTasks, clock },
    );
    try {
      const id = (
        await send(publicGateway, '/v1/videos/generations', { json: { model: 'sora-2', prompt: 'x', async: true } })
      ).json().id as string;
      videoTasks.update(id, { state: 'completed', progress: 100 });
      const status = (await send(publicGateway, `/v1/videos/generations/${id}`)).json();
      expect(status.video_url).toMatch(
        new RegExp(`^https://videos\\.example\\.test/v1/videos/${id}/content\\?expires=\\d+&signature=`),
      );
    } finally {
      await publicGateway.close();
    }
  });
});

describe('a gateway built without video tasks', () => {
  it.each([
    ['POST', '/v1/videos/generations', { model: 'sora-2', prompt: 'x', async: true }],
    ['GET', '/v1/videos/generations/task_1', undefined],
    ['POST', '/v1/videos', { prompt: 'x' }],
    ['GET', '/v1/videos', undefined],
    ['GET', '/v1/videos/task_1', undefined],
    ['DELETE', '/v1/videos/task_1', undefined],
    ['GET', '/v1/videos/task_1/content', undefined],
  ] as const)('answers %s %s with 503 service_unavailable', async (method, path, json) => {
    const answer = await send(withoutVideo, path, { method, ...(json ? { json } : {}) });
    expect(answer.status).toBe(503);
    expect(errorOf(answer).code).toBe('service_unavailable');
  });
});
