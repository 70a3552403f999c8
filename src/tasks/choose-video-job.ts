import { GatewayError } from '../core/gateway-error.js';
import type { VideoGenerationJob, VideoVendorAdapter } from '../providers/video/video-vendor-adapter.js';

/**
 * The job a vendor is asked for: the supported length nearest the one requested (the shorter on a tie, so the hold
 * never exceeds what was asked by more than necessary) and the size asked, else the first supported size of the
 * model id's orientation (`-landscape`: wider than tall, otherwise portrait). 400 when the vendor makes neither.
 */
export function chooseVideoJob(
  adapter: VideoVendorAdapter,
  request: { publicModelId: string; upstreamModelId: string; prompt: string; requestedSeconds: number; size: { width: number; height: number } | undefined },
): VideoGenerationJob {
  const lengths = adapter.supportedSeconds(request.upstreamModelId);
  if (lengths.length === 0) throw new GatewayError('invalid_request_error', `The model ${request.publicModelId} makes no video lengths.`, { param: 'seconds' });
  let seconds = lengths[0]!;
  for (const length of lengths) {
    const distance = Math.abs(length - request.requestedSeconds);
    const best = Math.abs(seconds - request.requestedSeconds);
    if (distance < best || (distance === best && length < seconds)) seconds = length;
  }
  const sizes = adapter.supportedSizes(request.upstreamModelId);
  const asked = request.size;
  const size = asked
    ? sizes.find((candidate) => candidate.width === asked.width && candidate.height === asked.height)
    : (sizes.find((candidate) => (request.publicModelId.endsWith('-landscape') ? candidate.width > candidate.height : candidate.height >= candidate.width)) ?? sizes[0]);
  if (size === undefined) {
    const listed = sizes.map((candidate) => `${candidate.width}x${candidate.height}`).join(', ');
    throw new GatewayError('invalid_request_error', `The model ${request.publicModelId} cannot make ${asked ? `${asked.width}x${asked.height}` : 'any size'}; it makes ${listed || 'no size'}.`, { param: 'size' });
  }
  return { upstreamModelId: request.upstreamModelId, prompt: request.prompt, seconds, width: size.width, height: size.height };
}
