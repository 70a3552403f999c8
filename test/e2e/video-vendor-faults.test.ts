// Video vendors that misbehave, end to end (issue 37): downloads that redirect (Veo's always do, to a signed URL on
// another origin), redirect without Location or in a loop, answer 404/500, break halfway or are too large, and jobs
// that fail quoting the channel key or vanish. Each: the process stays up (it is this test's process), the task ends
// in the documented state, and the hold is charged or released exactly once (`gateway billing verify` agrees).
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoDownloadFault } from '../simulators/video-simulator-outcome.js';
import {
  channelSecrets,
  expectNoVendorDetails,
  pollUntilFinished,
  pricePerSecondOf,
  readSpecTask,
  sendVideoRequest,
  startVideoEndToEnd,
  type VideoEndToEnd,
} from './video-end-to-end-gateway.js';

const timeoutMinutes = 5;
/** The cap this gateway stores videos up to: the simulators' MP4s fit, their oversized bodies do not. */
const maxBytes = 64 * 1024;
let setup: VideoEndToEnd;

beforeAll(async () => {
  setup = await startVideoEndToEnd({
    videoEnvironment: {
      GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES: String(timeoutMinutes),
      GATEWAY_VIDEO_MAX_BYTES: String(maxBytes),
    },
  });
});

afterAll(async () => {
  await setup?.close();
});

const vendors = [
  { vendor: 'sora' as const, model: 'sora-2' },
  { vendor: 'veo' as const, model: 'veo-3.0-generate-001' },
];

async function submit(model: string, prompt: string): Promise<string> {
  const answer = await sendVideoRequest(setup.gateway, '/v1/videos/generations', {
    key: setup.ownerKey,
    json: { model, prompt, async: true, duration: 5 },
  });
  expect(answer.status, answer.body.toString()).toBe(200);
  return answer.json().id as string;
}

/** The OpenAI surface's view, which names the failure's code. */
async function openAiView(id: string): Promise<Record<string, unknown>> {
  return (await sendVideoRequest(setup.gateway, `/v1/videos/${id}`, { key: setup.ownerKey })).json();
}

/** Files (whole or partial) the storage folder holds for a task. */
async function storedFilesOf(id: string): Promise<string[]> {
  const folder = setup.config.videoTasks?.storageDirectory ?? '';
  return (await readdir(folder).catch(() => [])).filter((name) => name.startsWith(id));
}

/** Every request the signed storage origins received must be free of the channel keys. */
function expectNoKeyAtSignedStorage(): void {
  const { sora, veo } = setup.simulators;
  for (const request of [...sora.storage.requests, ...veo.storage.requests]) {
    const sent = JSON.stringify(request.headers);
    expect(sent).not.toContain(channelSecrets.sora);
    expect(sent).not.toContain(channelSecrets.veo);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['x-goog-api-key']).toBeUndefined();
  }
}

async function expectCompletedAndCharged(id: string, model: string, before: number): Promise<void> {
  const finished = await pollUntilFinished(setup, [setup.gateway], id);
  expect(finished).toMatchObject({ status: 'completed' });
  const videoUrl = new URL(finished.video_url as string);
  const download = await sendVideoRequest(setup.gateway, videoUrl.pathname + videoUrl.search, { key: null });
  expect(download.status).toBe(200);
  expect(download.body.subarray(4, 8).toString('ascii')).toBe('ftyp');
  const charged = before - (await setup.balanceOf(setup.owner.id));
  expect(charged).toBe(pricePerSecondOf(model) * Number(finished.seconds));
  // More looks change nothing: charged once.
  await pollUntilFinished(setup, [setup.gateway], id);
  expect(before - (await setup.balanceOf(setup.owner.id))).toBe(charged);
  expect(await storedFilesOf(id)).toEqual([`${id}.mp4`]);
}

describe('downloads that redirect to a signed URL on another origin', () => {
  it.each([
    { vendor: 'veo', model: 'veo-3.0-generate-001', prompt: 'a calm lake at sunrise' },
    { vendor: 'sora', model: 'sora-2', prompt: 'a calm lake sim-video-download-redirect' },
  ])(
    '$vendor: follows the 302, sends the key only to the vendor, stores and serves the video, charged once',
    async ({ vendor, model, prompt }) => {
      const simulator = vendor === 'veo' ? setup.simulators.veo : setup.simulators.sora;
      const storageRequestsBefore = simulator.storage.requests.length;
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, prompt);
      await expectCompletedAndCharged(id, model, before);
      // The signed URL was fetched once, without any of the vendor's headers.
      expect(simulator.storage.requests.length - storageRequestsBefore).toBe(1);
      expectNoKeyAtSignedStorage();
    },
  );
});

describe('download faults: retried while the task lasts, then failed and released', () => {
  const retriedFaults: VideoDownloadFault[] = ['no-location', 'loop', '404', '500', 'break'];
  for (const { vendor, model } of vendors) {
    it.each(retriedFaults)(
      `${vendor}: a download answering %s never completes the task; after the timeout it fails and the hold is released`,
      async (fault) => {
        const before = await setup.balanceOf(setup.owner.id);
        const id = await submit(model, `a calm lake sim-video-download-${fault}`);
        for (let round = 0; round < 4; round += 1) {
          setup.clock.advance(10_000);
          await setup.gateway.runDueTasks();
        }
        const running = await readSpecTask(setup.gateway, setup.ownerKey, id);
        expect(running.status).toMatch(/pending|processing/);
        expect(await setup.balanceOf(setup.owner.id)).toBeLessThan(before);
        expect(await storedFilesOf(id)).toEqual([]);
        setup.clock.advance(timeoutMinutes * 60_000);
        const finished = await pollUntilFinished(setup, [setup.gateway], id);
        expect(finished.status).toBe('failed');
        expect((await openAiView(id)).error).toMatchObject({ code: 'task_timeout' });
        expect(await setup.balanceOf(setup.owner.id)).toBe(before);
        expect(await storedFilesOf(id)).toEqual([]);
        expectNoKeyAtSignedStorage();
      },
    );
  }

  it.each(vendors)(
    '$vendor: a download that breaks halfway once leaves no file and completes at the next poll, charged once',
    async ({ model }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, 'a calm lake sim-video-download-break-once');
      await expectCompletedAndCharged(id, model, before);
    },
  );

  it.each(
    vendors.flatMap(({ vendor, model }) => [
      { vendor, model, fault: 'oversize' as const },
      { vendor, model, fault: 'oversize-unannounced' as const },
    ]),
  )(
    '$vendor: a video over GATEWAY_VIDEO_MAX_BYTES ($fault) fails video_too_large, stores nothing, releases the hold',
    async ({ model, fault }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, `a calm lake sim-video-download-${fault}`);
      const finished = await pollUntilFinished(setup, [setup.gateway], id);
      expect(finished.status).toBe('failed');
      expect((await openAiView(id)).error).toMatchObject({ code: 'video_too_large' });
      expect(await setup.balanceOf(setup.owner.id)).toBe(before);
      expect(await storedFilesOf(id)).toEqual([]);
    },
  );
});

describe('jobs that fail or vanish', () => {
  it.each(vendors)(
    '$vendor: a failure quoting the channel key reaches the client redacted, and the hold is released',
    async ({ model }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, 'a calm lake sim-video-fail-quoting-key');
      const finished = await pollUntilFinished(setup, [setup.gateway], id);
      expect(finished.status).toBe('failed');
      const view = await openAiView(id);
      expect(view.error).toMatchObject({ code: 'vendor_failed', message: expect.stringContaining('[redacted]') });
      expectNoVendorDetails(setup, JSON.stringify(finished));
      expectNoVendorDetails(setup, JSON.stringify(view));
      expect(await setup.balanceOf(setup.owner.id)).toBe(before);
    },
  );

  it.each(vendors)(
    '$vendor: a job the vendor forgets (poll 404) fails vendor_failed and the hold is released',
    async ({ model }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const id = await submit(model, 'a calm lake sim-video-vanish sim-video-polls-5');
      const finished = await pollUntilFinished(setup, [setup.gateway], id);
      expect(finished.status).toBe('failed');
      expect((await openAiView(id)).error).toMatchObject({ code: 'vendor_failed' });
      expectNoVendorDetails(setup, JSON.stringify(finished));
      expect(await setup.balanceOf(setup.owner.id)).toBe(before);
    },
  );
});

describe('afterwards', () => {
  it('the books balance: every hold was charged or released exactly once', async () => {
    await setup.gateway.running.billing.writer.flush();
    const verified = await setup.verifyBilling();
    expect(verified.exitCode, verified.output).toBe(0);
    // The CLI is a child process compiled at start: on a loaded machine it takes far longer than a test does.
  }, 120_000);
});
