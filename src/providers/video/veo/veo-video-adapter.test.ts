import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../core/gateway-error.js';
import type { VideoGenerationJob } from '../video-vendor-adapter.js';
import { veoVideoAdapter } from './veo-video-adapter.js';

const channel = { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', secret: 'AIza-channel', settings: {} };
const job: VideoGenerationJob = {
  upstreamModelId: 'veo-3.0-generate-001',
  prompt: 'a red fox',
  seconds: 6,
  width: 720,
  height: 1280,
};
const operationName = 'models/veo-3.0-generate-001/operations/op123';
const fileUri = 'https://generativelanguage.googleapis.com/v1beta/files/abc:download?alt=media';

describe('Veo video adapter', () => {
  it('submits :predictLongRunning under the channel base with the key header and the mldev parameters', () => {
    const request = veoVideoAdapter.encodeSubmit(job, channel);
    expect(request).toMatchObject({
      method: 'POST',
      url: 'https://generativelanguage.googleapis.com/v1beta/models/veo-3.0-generate-001:predictLongRunning',
      headers: { 'x-goog-api-key': 'AIza-channel', 'content-type': 'application/json' },
    });
    expect(JSON.parse(request.body as string)).toEqual({
      instances: [{ prompt: 'a red fox' }],
      parameters: { aspectRatio: '9:16', durationSeconds: 6, resolution: '720p', sampleCount: 1 },
    });
    expect(
      JSON.parse(veoVideoAdapter.encodeSubmit({ ...job, width: 1280, height: 720 }, channel).body as string).parameters
        .aspectRatio,
    ).toBe('16:9');
  });

  it('reads the operation name and refuses a missing or path-escaping one', () => {
    expect(veoVideoAdapter.decodeSubmit(JSON.stringify({ name: operationName }))).toEqual({
      vendorTaskId: operationName,
    });
    expect(() => veoVideoAdapter.decodeSubmit('{}')).toThrow(GatewayError);
    expect(() => veoVideoAdapter.decodeSubmit(JSON.stringify({ name: 'models/x/operations/../../files/y' }))).toThrow(
      GatewayError,
    );
    expect(() => veoVideoAdapter.decodeSubmit(JSON.stringify({ name: 'https://elsewhere.test/op' }))).toThrow(
      GatewayError,
    );
  });

  it('polls GET {base}/{operation name} with the key, and only operation names', () => {
    expect(veoVideoAdapter.encodePoll(operationName, channel)).toEqual({
      method: 'GET',
      url: `https://generativelanguage.googleapis.com/v1beta/${operationName}`,
      headers: { 'x-goog-api-key': 'AIza-channel' },
    });
    expect(() => veoVideoAdapter.encodePoll('files/abc?alt=media', channel)).toThrow(GatewayError);
  });

  it.each([
    [
      'done:false as in progress without a percentage',
      { name: operationName, done: false },
      { state: 'in-progress', progress: null },
    ],
    ['no done field as in progress', { name: operationName }, { state: 'in-progress', progress: null }],
    [
      'a sample as completed, the URI as the reference',
      {
        name: operationName,
        done: true,
        response: { generateVideoResponse: { generatedSamples: [{ video: { uri: fileUri } }] } },
      },
      { state: 'completed', seconds: 6, contentReference: fileUri },
    ],
    [
      'an error as failed',
      { name: operationName, done: true, error: { code: 13, message: 'Internal error while generating.' } },
      { state: 'failed', code: 'vendor_failed', message: 'Internal error while generating.' },
    ],
    [
      'done without samples but filtered as content_filtered, not completed',
      {
        name: operationName,
        done: true,
        response: {
          generateVideoResponse: {
            raiMediaFilteredCount: 1,
            raiMediaFilteredReasons: ["We can't create videos from this prompt."],
          },
        },
      },
      {
        state: 'failed',
        code: 'content_filtered',
        message:
          "The video vendor filtered the generated video for safety reasons: We can't create videos from this prompt.",
      },
    ],
    [
      'a filtered count without reasons as content_filtered',
      { done: true, response: { generateVideoResponse: { raiMediaFilteredCount: 2 } } },
      {
        state: 'failed',
        code: 'content_filtered',
        message: 'The video vendor filtered the generated video for safety reasons.',
      },
    ],
    [
      'done with nothing as failed',
      { done: true, response: { generateVideoResponse: {} } },
      { state: 'failed', code: 'vendor_failed', message: 'The video vendor finished without producing a video.' },
    ],
  ])('reads %s', (_case, operation, expected) => {
    expect(veoVideoAdapter.decodePoll(JSON.stringify(operation), job)).toEqual(expected);
  });

  it('downloads the video URI with the channel key when it is on the channel origin', () => {
    expect(veoVideoAdapter.encodeDownload(fileUri, channel, 'video')).toEqual({
      method: 'GET',
      url: fileUri,
      headers: { 'x-goog-api-key': 'AIza-channel' },
    });
  });

  it.each([
    ['another host', 'https://attacker.example.test/v1beta/files/abc:download?alt=media'],
    ['plain http on the same host', 'http://generativelanguage.googleapis.com/v1beta/files/abc:download?alt=media'],
    ['another port', 'https://generativelanguage.googleapis.com:8443/v1beta/files/abc:download'],
    ['a look-alike host', 'https://generativelanguage.googleapis.com.attacker.test/files/abc'],
    ['credentials in the URL', 'https://user:pass@generativelanguage.googleapis.com/v1beta/files/abc'],
    ['no URL at all', 'not a url'],
  ])('refuses to download from %s (the key must not leave the vendor)', (_case, uri) => {
    expect(() => veoVideoAdapter.encodeDownload(uri, channel, 'video')).toThrow(GatewayError);
  });

  it('has no thumbnail or spritesheet and no cancel', () => {
    expect(veoVideoAdapter.encodeDownload(fileUri, channel, 'thumbnail')).toBeUndefined();
    expect(veoVideoAdapter.encodeDownload(fileUri, channel, 'spritesheet')).toBeUndefined();
    expect(veoVideoAdapter.encodeCancel).toBeUndefined();
  });

  it('maps Gemini failures: a bad key is the channel (retryable), 429 is retryable, 400 final', () => {
    const badKey = veoVideoAdapter.mapFailure(
      400,
      JSON.stringify({
        error: {
          code: 400,
          message: 'API key not valid.',
          status: 'INVALID_ARGUMENT',
          details: [{ reason: 'API_KEY_INVALID' }],
        },
      }),
      undefined,
    );
    expect(badKey).toMatchObject({ kind: 'retryable-failure', error: { code: 'service_unavailable' } });
    expect(veoVideoAdapter.mapFailure(429, '{"error":{"code":429}}', undefined)).toMatchObject({
      kind: 'retryable-failure',
      error: { code: 'rate_limit_exceeded' },
    });
    expect(
      veoVideoAdapter.mapFailure(400, '{"error":{"code":400,"message":"durationSeconds out of bound"}}', undefined),
    ).toMatchObject({ kind: 'final-failure', error: { code: 'invalid_request_error' } });
  });

  it('knows Veo 3 makes 4, 6 and 8 s at 720p in both orientations', () => {
    for (const model of ['veo-3.0-generate-001', 'veo-3.0-fast-generate-001']) {
      expect(veoVideoAdapter.supportedSeconds(model)).toEqual([4, 6, 8]);
      expect(veoVideoAdapter.supportedSizes(model)).toEqual([
        { width: 720, height: 1280 },
        { width: 1280, height: 720 },
      ]);
    }
    expect(veoVideoAdapter.supportedSizes('sora-2')).toEqual([]);
  });
});
