import { FormData } from 'undici';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../core/gateway-error.js';
import type { VideoGenerationJob } from '../video-vendor-adapter.js';
import { azureSoraVideoAdapter, soraVideoAdapter } from './sora-video-adapter.js';

const channel = { baseUrl: 'https://api.openai.example.test/v1', secret: 'sk-channel', settings: {} };
const job: VideoGenerationJob = {
  upstreamModelId: 'sora-2-pro',
  prompt: 'a red fox',
  seconds: 8,
  width: 1280,
  height: 720,
};

function resource(fields: Record<string, unknown>): string {
  return JSON.stringify({
    id: 'video_123',
    object: 'video',
    model: 'sora-2-pro',
    progress: 0,
    seconds: '8',
    size: '1280x720',
    error: null,
    ...fields,
  });
}

describe('Sora video adapter', () => {
  it('submits multipart to {base}/videos with the bearer key, seconds as a string and size as WxH', () => {
    const request = soraVideoAdapter.encodeSubmit(job, channel);
    expect(request).toMatchObject({
      method: 'POST',
      url: 'https://api.openai.example.test/v1/videos',
      headers: { authorization: 'Bearer sk-channel' },
    });
    expect(request.body).toBeInstanceOf(FormData);
    const form = request.body as FormData;
    expect(Object.fromEntries(form.entries())).toEqual({
      model: 'sora-2-pro',
      prompt: 'a red fox',
      seconds: '8',
      size: '1280x720',
    });
  });

  it('reads the video id from the create answer and refuses one without an id', () => {
    expect(soraVideoAdapter.decodeSubmit(resource({ status: 'queued' }))).toEqual({ vendorTaskId: 'video_123' });
    expect(() => soraVideoAdapter.decodeSubmit('{"object":"video"}')).toThrow(GatewayError);
    expect(() => soraVideoAdapter.decodeSubmit('not json')).toThrow(GatewayError);
  });

  it('polls GET {base}/videos/{id} with the id escaped', () => {
    expect(soraVideoAdapter.encodePoll('video_1/../x', channel)).toEqual({
      method: 'GET',
      url: 'https://api.openai.example.test/v1/videos/video_1%2F..%2Fx',
      headers: { authorization: 'Bearer sk-channel' },
    });
  });

  it.each([
    ['queued', { status: 'queued', progress: 0 }, { state: 'queued', progress: 0 }],
    [
      'in_progress with its percentage',
      { status: 'in_progress', progress: 42 },
      { state: 'in-progress', progress: 42 },
    ],
    ['in_progress capped below 100', { status: 'in_progress', progress: 100 }, { state: 'in-progress', progress: 99 }],
    [
      'in_progress without a percentage',
      { status: 'in_progress', progress: null },
      { state: 'in-progress', progress: null },
    ],
    [
      'completed, with the length generated',
      { status: 'completed', progress: 100, seconds: '12' },
      { state: 'completed', seconds: 12, contentReference: 'video_123' },
    ],
    [
      'failed',
      { status: 'failed', error: { code: 'video_generation_failed', message: 'Generation failed.' } },
      { state: 'failed', code: 'vendor_failed', message: 'Generation failed.' },
    ],
    [
      'failed by moderation',
      { status: 'failed', error: { code: 'moderation_blocked', message: 'Blocked by our moderation.' } },
      { state: 'failed', code: 'content_filtered', message: 'Blocked by our moderation.' },
    ],
    [
      'failed without details',
      { status: 'failed', error: null },
      { state: 'failed', code: 'vendor_failed', message: 'The video vendor could not generate this video.' },
    ],
  ])('reads %s', (_case, fields, expected) => {
    expect(soraVideoAdapter.decodePoll(resource(fields), job)).toEqual(expected);
  });

  it('keeps the asked length when a completed video names none, and refuses an unknown status', () => {
    expect(soraVideoAdapter.decodePoll(resource({ status: 'completed', seconds: null }), job)).toMatchObject({
      seconds: 8,
    });
    expect(() => soraVideoAdapter.decodePoll(resource({ status: 'cancelled' }), job)).toThrow(GatewayError);
  });

  it('redacts keys from a vendor failure message', () => {
    const status = soraVideoAdapter.decodePoll(
      resource({ status: 'failed', error: { code: 'x', message: 'bad key sk-abcdefghijklmnopqrstuvwxyz123456' } }),
      job,
    );
    expect(JSON.stringify(status)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz123456');
  });

  it('downloads each variant from {base}/videos/{id}/content with the key and a binary Accept', () => {
    for (const variant of ['video', 'thumbnail', 'spritesheet'] as const) {
      expect(soraVideoAdapter.encodeDownload('video_123', channel, variant)).toEqual({
        method: 'GET',
        url: `https://api.openai.example.test/v1/videos/video_123/content?variant=${variant}`,
        headers: { authorization: 'Bearer sk-channel', accept: 'application/binary' },
      });
    }
  });

  it('has no cancel: OpenAI deletes only completed or failed videos', () => {
    expect(soraVideoAdapter.encodeCancel).toBeUndefined();
  });

  it('maps vendor failures like the OpenAI passthrough: 429 retryable with Retry-After, 400 final', () => {
    const limited = soraVideoAdapter.mapFailure(429, '{"error":{"message":"slow down"}}', '7');
    expect(limited).toMatchObject({
      kind: 'retryable-failure',
      error: { code: 'rate_limit_exceeded', headers: { 'retry-after': '7' } },
    });
    const invalid = soraVideoAdapter.mapFailure(400, '{"error":{"message":"Invalid size","param":"size"}}', undefined);
    expect(invalid).toMatchObject({
      kind: 'final-failure',
      error: { code: 'invalid_request_error', param: 'size', message: 'Invalid size' },
    });
  });

  it('knows which sizes each Sora model renders and that every one makes 4, 8 and 12 s', () => {
    expect(soraVideoAdapter.supportedSizes('sora-2')).toEqual([
      { width: 720, height: 1280 },
      { width: 1280, height: 720 },
    ]);
    expect(soraVideoAdapter.supportedSizes('sora-2-pro')).toHaveLength(4);
    expect(soraVideoAdapter.supportedSeconds('sora-2')).toEqual([4, 8, 12]);
    expect(soraVideoAdapter.supportedSeconds('veo-3.0-generate-001')).toEqual([]);
  });

  it('serves Azure through /openai/v1/videos with the api-key header whatever apiVersion the channel sets', () => {
    const azure = {
      baseUrl: 'https://res.openai.azure.com',
      secret: 'azure-key',
      settings: { apiVersion: '2024-10-21' },
    };
    expect(azureSoraVideoAdapter.protocol).toBe('azure');
    expect(azureSoraVideoAdapter.encodeSubmit({ ...job, upstreamModelId: 'sora-2' }, azure)).toMatchObject({
      url: 'https://res.openai.azure.com/openai/v1/videos',
      headers: { 'api-key': 'azure-key' },
    });
    expect(azureSoraVideoAdapter.encodeDownload('video_9', azure, 'video')?.url).toBe(
      'https://res.openai.azure.com/openai/v1/videos/video_9/content?variant=video',
    );
  });
});
