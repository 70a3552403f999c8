// The videos a Sora simulator holds and how each one's status moves with each poll.
import { randomIdentifier } from './openai-simulator-text.js';
import { videoJobStage, type VideoOutcome } from './video-simulator-outcome.js';
import type { SoraCreateRequest } from './sora-simulator-validation.js';

/** One simulated video. */
export interface SoraVideo {
  id: string;
  request: SoraCreateRequest;
  outcome: VideoOutcome;
  /** successful status reads so far */
  polls: number;
  /** true once the first-poll failure (if any) was answered */
  pollFailureAnswered: boolean;
  /** Unix seconds */
  createdAt: number;
  /** Unix seconds, set when the job ends */
  completedAt: number | null;
}

/** OpenAI's `VideoResource`: all 13 fields, nullable ones included. */
export type SoraVideoResource = Record<string, unknown>;

/** Renders a video's current state as OpenAI does; `apiKey` is the key a `failureQuotesKey` failure quotes. */
export function renderSoraVideo(video: SoraVideo, pollsUntilDone: number, apiKey = ''): SoraVideoResource {
  const stage = videoJobStage(video.polls, video.outcome.pollsUntilDone ?? pollsUntilDone, video.outcome);
  const base = {
    id: video.id,
    object: 'video',
    model: video.request.model,
    created_at: video.createdAt,
    completed_at: null as number | null,
    expires_at: null as number | null,
    prompt: video.request.prompt,
    size: video.request.size,
    seconds: video.request.seconds,
    remixed_from_video_id: null,
  };
  if (stage.stage === 'queued') return { ...base, status: 'queued', progress: 0, error: null };
  if (stage.stage === 'running') return { ...base, status: 'in_progress', progress: stage.progress, error: null };
  const endedAt = video.completedAt ?? video.createdAt;
  if (video.outcome.kind === 'failure') {
    return {
      ...base,
      status: 'failed',
      progress: 100,
      completed_at: endedAt,
      error: {
        code: 'video_generation_failed',
        message: video.outcome.failureQuotesKey
          ? `Video generation failed for the key ${apiKey}. Please try again.`
          : 'Video generation failed. Please try again.',
      },
    };
  }
  if (video.outcome.kind === 'content-filtered') {
    return {
      ...base,
      status: 'failed',
      progress: 100,
      completed_at: endedAt,
      error: { code: 'moderation_blocked', message: 'Your request was blocked by our moderation system.' },
    };
  }
  return {
    ...base,
    status: 'completed',
    progress: 100,
    completed_at: endedAt,
    expires_at: endedAt + 3600,
    error: null,
  };
}

/** A new video id as OpenAI spells them. */
export function newSoraVideoId(): string {
  return `video_${randomIdentifier()}`;
}
