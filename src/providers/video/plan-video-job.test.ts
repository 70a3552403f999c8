import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { nearestSeconds, planVideoJob } from './plan-video-job.js';
import { soraVideoAdapter } from './sora/sora-video-adapter.js';
import { veoVideoAdapter } from './veo/veo-video-adapter.js';
import { findVideoVendorAdapter } from './video-vendor-adapter-registry.js';

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('planVideoJob', () => {
  // The spec's durations against each vendor's lengths: the nearest, ties to the shorter (docs/VIDEO.md).
  it.each([
    [5, [4, 8, 12], 4],
    [10, [4, 8, 12], 8],
    [15, [4, 8, 12], 12],
    [20, [4, 8, 12], 12],
    [5, [4, 6, 8], 4],
    [10, [4, 6, 8], 8],
    [15, [4, 6, 8], 8],
    [20, [4, 6, 8], 8],
    [7, [8, 4, 6], 6],
    [6, [4, 8, 12], 4],
    [1, [4, 8, 12], 4],
  ])('maps %i s to %j as %i s', (requested, vendorSeconds, expected) => {
    expect(nearestSeconds(requested, vendorSeconds)).toBe(expected);
  });

  it('maps a portrait id to the vendor portrait size and a -landscape twin to landscape', () => {
    expect(planVideoJob({ id: 'sora-2' }, 10, soraVideoAdapter)).toEqual({
      upstreamModelId: 'sora-2',
      seconds: 8,
      width: 720,
      height: 1280,
    });
    expect(
      planVideoJob(
        { id: 'sora-2-landscape', videoUpstreamModelId: 'sora-2', videoOrientation: 'landscape' },
        15,
        soraVideoAdapter,
      ),
    ).toEqual({ upstreamModelId: 'sora-2', seconds: 12, width: 1280, height: 720 });
    expect(
      planVideoJob(
        { id: 'veo-3.0-generate-001-landscape', videoUpstreamModelId: 'veo-3.0-generate-001' },
        5,
        veoVideoAdapter,
      ),
    ).toEqual({ upstreamModelId: 'veo-3.0-generate-001', seconds: 4, width: 1280, height: 720 });
  });

  it('takes an exact size in the orientation (OpenAI surface) and a channel-mapped upstream model', () => {
    const pro = { id: 'sora-2-pro', videoUpstreamModelId: 'sora-2-pro', videoOrientation: 'portrait' as const };
    expect(
      planVideoJob(pro, 12, soraVideoAdapter, { size: { width: 1024, height: 1792 }, durationParameter: 'seconds' }),
    ).toEqual({ upstreamModelId: 'sora-2-pro', seconds: 12, width: 1024, height: 1792 });
    expect(
      planVideoJob({ id: 'sora-2' }, 4, soraVideoAdapter, { upstreamModelId: 'sora-2-2025-10-06' }).upstreamModelId,
    ).toBe('sora-2-2025-10-06');
  });

  it('answers 400 naming size for a size the vendor does not make or one of the other orientation', () => {
    const tooLarge = refusal(() =>
      planVideoJob({ id: 'sora-2' }, 4, soraVideoAdapter, { size: { width: 1024, height: 1792 } }),
    );
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.param).toBe('size');
    expect(
      refusal(() => planVideoJob({ id: 'sora-2' }, 4, soraVideoAdapter, { size: { width: 1280, height: 720 } })).param,
    ).toBe('size');
  });

  it('answers 400 naming model for a model the vendor cannot make', () => {
    const wrongVendor = refusal(() => planVideoJob({ id: 'veo-3.0-generate-001' }, 5, soraVideoAdapter));
    expect(wrongVendor.status).toBe(400);
    expect(wrongVendor.param).toBe('model');
    expect(wrongVendor.code).toBe('invalid_request_error');
  });

  it('answers 400 naming the duration parameter for a length that is not a positive number', () => {
    expect(refusal(() => planVideoJob({ id: 'sora-2' }, 0, soraVideoAdapter)).param).toBe('duration');
    expect(
      refusal(() => planVideoJob({ id: 'sora-2' }, Number.NaN, soraVideoAdapter, { durationParameter: 'seconds' }))
        .param,
    ).toBe('seconds');
  });
});

describe('findVideoVendorAdapter', () => {
  it('finds Sora for openai and azure channels, Veo for gemini, and nothing for a protocol without video', () => {
    expect(findVideoVendorAdapter('openai')).toBe(soraVideoAdapter);
    expect(findVideoVendorAdapter('azure')?.protocol).toBe('azure');
    expect(findVideoVendorAdapter('gemini')).toBe(veoVideoAdapter);
    expect(findVideoVendorAdapter('anthropic')).toBeUndefined();
  });
});
