// The official SDK's `client.videos` against the real gateway, task layer and both simulators.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoVendorDetails,
  nearestVendorSeconds,
  pollUntilFinished,
  pricePerSecondOf,
  startVideoEndToEnd,
  vendorPrompts,
  type VideoEndToEnd,
} from './video-end-to-end-gateway.js';

let setup: VideoEndToEnd;
let client: OpenAI;
let otherClient: OpenAI;

beforeAll(async () => {
  setup = await startVideoEndToEnd();
  client = setup.sdk(setup.gateway, setup.ownerKey);
  otherClient = setup.sdk(setup.gateway, setup.otherUsersKey);
});

afterAll(async () => {
  await setup?.close();
});

describe('client.videos end to end', () => {
  it.each([
    { vendor: 'sora' as const, model: 'sora-2', seconds: '8' as const, size: '720x1280' as const },
    { vendor: 'sora' as const, model: 'sora-2-landscape', seconds: '12' as const, size: '1280x720' as const },
    { vendor: 'veo' as const, model: 'veo-3.0-generate-001', seconds: '4' as const, size: '720x1280' as const },
    {
      vendor: 'veo' as const,
      model: 'veo-3.0-generate-001-landscape',
      seconds: '8' as const,
      size: '1280x720' as const,
    },
  ])(
    '$model: create, poll with retrieve, download the MP4, delete; billed for the seconds made',
    async ({ vendor, model, seconds, size }) => {
      const before = await setup.balanceOf(setup.owner.id);
      const created = await client.videos.create({ prompt: vendorPrompts.success, model, seconds, size });
      expect(created).toMatchObject({
        object: 'video',
        model,
        status: 'queued',
        size,
        remixed_from_video_id: null,
        error: null,
        completed_at: null,
      });
      expect(nearestVendorSeconds(vendor, Number(seconds))).toContain(Number(created.seconds));
      await pollUntilFinished(setup, [setup.gateway], created.id);
      const finished = await client.videos.retrieve(created.id);
      expect(finished).toMatchObject({ status: 'completed', progress: 100, seconds: created.seconds, error: null });
      expect(finished.completed_at).toEqual(expect.any(Number));
      expectNoVendorDetails(setup, JSON.stringify(finished));

      const content = await client.videos.downloadContent(created.id);
      expect(content.headers.get('content-type')).toBe('video/mp4');
      expect(
        Buffer.from(await content.arrayBuffer())
          .subarray(4, 8)
          .toString('ascii'),
      ).toBe('ftyp');
      expect(before - (await setup.balanceOf(setup.owner.id))).toBe(pricePerSecondOf(model) * Number(created.seconds));

      expect(await client.videos.delete(created.id)).toEqual({
        id: created.id,
        object: 'video.deleted',
        deleted: true,
      });
      await expect(client.videos.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    },
  );

  it('the size asked decides the orientation: sora-2 at 1280x720 is made landscape; only the video is stored', async () => {
    const created = await client.videos.create({
      prompt: vendorPrompts.success,
      model: 'sora-2',
      seconds: '4',
      size: '1280x720',
    });
    expect(created.size).toBe('1280x720');
    await pollUntilFinished(setup, [setup.gateway], created.id);
    expect(await client.videos.retrieve(created.id)).toMatchObject({
      status: 'completed',
      size: '1280x720',
      seconds: '4',
    });
    await expect(client.videos.downloadContent(created.id, { variant: 'thumbnail' })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });

  it('a failed video carries {code, message}; a running one cannot be deleted', async () => {
    const failing = await client.videos.create({ prompt: vendorPrompts.failure, model: 'sora-2' });
    await expect(client.videos.delete(failing.id)).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await pollUntilFinished(setup, [setup.gateway], failing.id);
    const failed = await client.videos.retrieve(failing.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: expect.any(String), message: expect.any(String) });
  });

  it("list pages through the user's videos only, across both surfaces", async () => {
    const lister = setup.sdk(setup.gateway, setup.otherUsersKey);
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      ids.push((await lister.videos.create({ prompt: `${vendorPrompts.success} ${index}`, model: 'sora-2' })).id);
      // Newest first is by creation time; tasks created in the same millisecond have no order between them.
      setup.clock.advance(1_000);
    }
    const seen: string[] = [];
    for await (const video of lister.videos.list({ limit: 2 })) seen.push(video.id);
    expect(seen).toEqual([...ids].reverse());
    const ownersIds: string[] = [];
    for await (const video of client.videos.list({ limit: 100 })) ownersIds.push(video.id);
    expect(ownersIds.some((id) => ids.includes(id))).toBe(false);
    await expect(client.videos.retrieve(ids[0] ?? '')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.videos.downloadContent(ids[0] ?? '')).rejects.toBeInstanceOf(OpenAI.APIError);
  });
});
