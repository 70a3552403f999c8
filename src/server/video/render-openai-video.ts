import type { VideoTaskState, VideoTaskView } from '../../tasks/video-task-service.js';

/** OpenAI's video statuses (VideoResource.status). */
export type OpenAiVideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** OpenAI's `VideoResource`: all 13 fields always present, null where nullable. */
export interface OpenAiVideoBody {
  id: string;
  object: 'video';
  model: string;
  status: OpenAiVideoStatus;
  /** 0–100 */
  progress: number;
  /** Unix seconds */
  created_at: number;
  completed_at: number | null;
  expires_at: number | null;
  prompt: string | null;
  /** `{width}x{height}` in pixels */
  size: string;
  /** the seconds generated, as a string (OpenAI's type) */
  seconds: string;
  remixed_from_video_id: string | null;
  error: { code: string; message: string } | null;
}

/** OpenAI's status name of a task state. */
export function openAiVideoStatusOf(state: VideoTaskState): OpenAiVideoStatus {
  switch (state) {
    case 'queued':
      return 'queued';
    case 'in-progress':
      return 'in_progress';
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    default: {
      const unknownState: never = state;
      throw new Error(`Unknown video task state ${String(unknownState)}`);
    }
  }
}

/** A task as OpenAI's `VideoResource` (remixes are not supported, so `remixed_from_video_id` is always null). */
export function renderOpenAiVideo(view: VideoTaskView): OpenAiVideoBody {
  return {
    id: view.id,
    object: 'video',
    model: view.model,
    status: openAiVideoStatusOf(view.state),
    progress: view.progress,
    created_at: view.createdAt,
    completed_at: view.completedAt,
    expires_at: view.expiresAt,
    prompt: view.prompt,
    size: `${view.width}x${view.height}`,
    seconds: String(view.seconds),
    remixed_from_video_id: null,
    error:
      view.state === 'failed'
        ? (view.error ?? { code: 'vendor_failed', message: 'The video could not be generated.' })
        : null,
  };
}
