// The spec's task API over raw HTTP against the real gateway, task layer and both vendor simulators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoVendorDetails,
  nearestVendorSeconds,
  pollUntilFinished,
  pricePerSecondOf,
  readSpecTask,
  sendVideoRequest,
  startVideoEndToEnd,
  vendorPrompts,
  videoModels,
  type VideoEndToEnd,
} from './video-end-to-end-gateway.js';

const timeoutMinutes = 30;
let setup: VideoEndToEnd;

beforeAll(async () => {
  // The operator's timeout, short enough to cross with the injected clock.
  setup = await startVideoEndToEnd({
    videoEnvironment: { GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES: String(timeoutMinutes) },
  });
});

afterAll(async () => {
  await setup?.close();
});

async function submit(model: string, prompt: string, duration?: number, key = setup.ownerKey): Promise<string> {
  const answer = await sendVideoRequest(setup.gateway, '/v1/videos/generations', {
    key,
    json: { model, prompt, async: true, ...(duration === undefined ? {} : { duration }) },
  });
  expect(answer.status, answer.body.toString()).toBe(200);
  const body = answer.json();
  expect(body).toEqual({
    id: expect.stringMatching(/^task_/),
    status: 'pending',
    created_at: Math.floor(setup.clock.now() / 1000),
  });
  return body.id as string;
}

const vendorCases = [
  ...videoModels.sora.map((model) => ({ vendor: 'sora' as const, model })),
  ...videoModels.veo.map((model) => ({ vendor: 'veo' as const, model })),
];

describe('every duration, portrait and landscape, on both vendors', () => {
  for (const { vendor, model } of vendorCases) {
    for (const duration of [5, 10, 15, 20]) {
      it(`${model}, ${duration} s: completes at the nearest length the vendor makes, billed once for it, downloadable by its signed URL`, async () => {
        const before = await setup.balanceOf(setup.owner.id);
        const id = await submit(model, vendorPrompts.success, duration);
        const pending = await readSpecTask(setup.gateway, setup.ownerKey, id);
        expect(pending).toMatchObject({ status: 'pending', model, duration, prompt: vendorPrompts.success });
        expect(nearestVendorSeconds(vendor, duration)).toContain(pending.seconds);
        // While it runs the balance shows the hold: the price of the seconds the vendor will make.
        expect(before - (await setup.balanceOf(setup.owner.id))).toBe(
          pricePerSecondOf(model) * Number(pending.seconds),
        );

        const finished = await pollUntilFinished(setup, [setup.gateway], id);
        expect(finished).toMatchObject({ status: 'completed', progress: 100, duration, seconds: pending.seconds });
        expect(finished).not.toHaveProperty('error');
        expectNoVendorDetails(setup, JSON.stringify(finished));

        const openAiView = (await sendVideoRequest(setup.gateway, `/v1/videos/${id}`, { key: setup.ownerKey })).json();
        expect(openAiView.size).toBe(model.endsWith('-landscape') ? '1280x720' : '720x1280');
        expect(openAiView.seconds).toBe(String(pending.seconds));

        const videoUrl = new URL(finished.video_url as string);
        expect(videoUrl.origin).toBe(setup.gateway.url);
        const download = await sendVideoRequest(setup.gateway, videoUrl.pathname + videoUrl.search, { key: null });
        expect(download.status).toBe(200);
        expect(download.headers['content-type']).toBe('video/mp4');
        expect(download.body.subarray(4, 8).toString('ascii')).toBe('ftyp');

        const charged = before - (await setup.balanceOf(setup.owner.id));
        expect(charged).toBe(pricePerSecondOf(model) * Number(pending.seconds));
        // More polls after the end change nothing: the settlement happened once.
        await pollUntilFinished(setup, [setup.gateway], id);
        expect(before - (await setup.balanceOf(setup.owner.id))).toBe(charged);
      });
    }
  }
});

describe('failures release the hold and say why', () => {
  it.each(vendorCases)(
    '$model: a vendor failure is failed with an error string, nothing charged',
    async ({ model }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, vendorPrompts.failure);
      const finished = await pollUntilFinished(setup, [setup.gateway], id);
      expect(finished.status).toBe('failed');
      expect(typeof finished.error).toBe('string');
      expect(finished).not.toHaveProperty('video_url');
      expectNoVendorDetails(setup, JSON.stringify(finished));
      expect(await setup.balanceOf(setup.owner.id)).toBe(before);
    },
  );

  it('veo: a finished operation whose samples were all filtered is failed (content filtered), not completed', async () => {
    const before = await setup.balanceOf(setup.owner.id);
    const id = await submit('veo-3.0-generate-001', vendorPrompts.contentFiltered);
    const finished = await pollUntilFinished(setup, [setup.gateway], id);
    expect(finished.status).toBe('failed');
    expect(finished.error).toMatch(/filter/i);
    const openAiView = (await sendVideoRequest(setup.gateway, `/v1/videos/${id}`, { key: setup.ownerKey })).json();
    expect(openAiView.error).toMatchObject({ code: 'content_filtered' });
    expect(await setup.balanceOf(setup.owner.id)).toBe(before);
  });

  it.each(vendorCases)(
    "$model: a task that never finishes fails after the operator's timeout, saying so, and is refunded",
    async ({ model }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, vendorPrompts.neverFinishes);
      setup.clock.advance(10_000);
      await setup.gateway.runDueTasks();
      expect((await readSpecTask(setup.gateway, setup.ownerKey, id)).status).toMatch(/pending|processing/);
      expect(await setup.balanceOf(setup.owner.id)).toBeLessThan(before);
      setup.clock.advance(timeoutMinutes * 60_000);
      const finished = await pollUntilFinished(setup, [setup.gateway], id);
      expect(finished.status).toBe('failed');
      expect(finished.error).toMatch(/timed out|time out|timeout/i);
      const openAiView = (await sendVideoRequest(setup.gateway, `/v1/videos/${id}`, { key: setup.ownerKey })).json();
      expect(openAiView.error).toMatchObject({ code: 'task_timeout' });
      expect(await setup.balanceOf(setup.owner.id)).toBe(before);
    },
  );

  it('a user who cannot pay gets 429 insufficient_quota, no task, nothing held and no vendor call', async () => {
    const vendorRequestsBefore = setup.vendorRequestCount();
    const answer = await sendVideoRequest(setup.gateway, '/v1/videos/generations', {
      key: setup.brokeKey,
      json: { model: 'sora-2', prompt: vendorPrompts.success, async: true },
    });
    expect(answer.status).toBe(429);
    expect((answer.json().error as { code: string }).code).toBe('insufficient_quota');
    const list = (await sendVideoRequest(setup.gateway, '/v1/videos', { key: setup.brokeKey })).json();
    expect(list.data).toEqual([]);
    expect(setup.vendorRequestCount()).toBe(vendorRequestsBefore);
    expect(await setup.balanceOf(setup.brokeUser.id)).toBe(0);
    expect(setup.gateway.running.billing.memory.user(setup.brokeUser.id).held).toBe(0);
  });
});

describe('ownership and expiry', () => {
  it("another user's key gets 404 on both surfaces and on the content; the signed URL still works without a key", async () => {
    const id = await submit('sora-2', vendorPrompts.success);
    const finished = await pollUntilFinished(setup, [setup.gateway], id);
    for (const path of [`/v1/videos/generations/${id}`, `/v1/videos/${id}`, `/v1/videos/${id}/content`]) {
      expect((await sendVideoRequest(setup.gateway, path, { key: setup.otherUsersKey })).status, path).toBe(404);
    }
    expect(
      (await sendVideoRequest(setup.gateway, `/v1/videos/${id}`, { key: setup.otherUsersKey, method: 'DELETE' }))
        .status,
    ).toBe(404);
    const videoUrl = new URL(finished.video_url as string);
    expect((await sendVideoRequest(setup.gateway, videoUrl.pathname + videoUrl.search, { key: null })).status).toBe(
      200,
    );
  });

  it('24 hours after submission the task answers 404 saying it expired, on both surfaces, and its video_url stops working', async () => {
    const id = await submit('veo-3.0-generate-001-landscape', vendorPrompts.success, 10);
    const finished = await pollUntilFinished(setup, [setup.gateway], id);
    const videoUrl = new URL(finished.video_url as string);
    setup.clock.advance(24 * 3600 * 1000);
    await setup.gateway.runDueTasks();
    for (const path of [`/v1/videos/generations/${id}`, `/v1/videos/${id}`]) {
      const answer = await sendVideoRequest(setup.gateway, path, { key: setup.ownerKey });
      expect(answer.status, path).toBe(404);
      expect((answer.json().error as { message: string }).message).toMatch(/expired/);
    }
    expect((await sendVideoRequest(setup.gateway, videoUrl.pathname + videoUrl.search, { key: null })).status).toBe(
      404,
    );
    expect((await sendVideoRequest(setup.gateway, `/v1/videos/${id}/content`, { key: setup.ownerKey })).status).toBe(
      404,
    );
  });

  it('usage logs show the submit (no charge) and the settlement (the charge, priced per second × ratio)', async () => {
    const model = 'veo-3.0-generate-001';
    const answer = await sendVideoRequest(setup.gateway, '/v1/videos/generations', {
      key: setup.ownerKey,
      json: { model, prompt: vendorPrompts.success, duration: 15, async: true },
    });
    const id = answer.json().id as string;
    const finished = await pollUntilFinished(setup, [setup.gateway], id);
    await setup.gateway.running.billing.writer.flush();
    const logs = (
      await setup.gateway.running.billing.store.listUsageLogs({ userId: setup.owner.id, model, limit: 500 })
    ).filter((log) => log.requestId === answer.headers['x-request-id']);
    expect(
      logs
        .map((log) => ({ endpoint: log.endpoint, status: log.status, cost: log.cost }))
        .sort((left, right) => left.endpoint.localeCompare(right.endpoint)),
    ).toEqual([
      { endpoint: 'videos', status: 200, cost: 0 },
      { endpoint: 'videos.settlement', status: 200, cost: pricePerSecondOf(model) * Number(finished.seconds) },
    ]);
  });

  it('money stays consistent: every balance equals its ledger, task holds included, and `gateway billing verify` is clean', async () => {
    expect(await setup.gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
    await setup.gateway.running.billing.writer.flush();
    const verified = await setup.verifyBilling();
    expect(verified.exitCode, verified.output).toBe(0);
    expect(JSON.parse(verified.output)).toMatchObject({ ok: true, mismatches: [], taskHoldMismatches: [] });
  });
});
