import type { VideoTaskState, VideoTaskView } from '../../tasks/video-task-service.js';

/** The spec's task states (spec §3). */
export type SpecVideoStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** `GET /v1/videos/generations/{task_id}` (spec §2.6, §4.10): `video_url` only when completed, `error` only when failed. */
export interface SpecVideoTaskBody {
  id: string;
  status: SpecVideoStatus;
  model: string;
  prompt: string;
  /** seconds the client asked for */
  duration: number;
  /** seconds the vendor generates (and the task is billed for): the nearest length it makes */
  seconds: number;
  /** 0–100 */
  progress: number;
  /** Unix seconds */
  created_at: number;
  /** Unix seconds, null until finished */
  completed_at: number | null;
  /** Unix seconds: afterwards the task cannot be queried (spec §8) */
  expires_at: number;
  video_url?: string;
  error?: string;
}

/** The spec's status name of a task state. */
export function specVideoStatusOf(state: VideoTaskState): SpecVideoStatus {
  switch (state) {
    case 'queued':
      return 'pending';
    case 'in-progress':
      return 'processing';
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

/** The spec's submit answer (spec §2.6). */
export function renderSpecVideoSubmission(view: VideoTaskView): {
  id: string;
  status: SpecVideoStatus;
  created_at: number;
} {
  return { id: view.id, status: specVideoStatusOf(view.state), created_at: view.createdAt };
}

/** The spec's status answer; `videoUrl` is the signed gateway URL, asked for only when the task is completed. */
export function renderSpecVideoTask(
  view: VideoTaskView,
  videoUrlOf: (view: VideoTaskView) => string,
): SpecVideoTaskBody {
  const body: SpecVideoTaskBody = {
    id: view.id,
    status: specVideoStatusOf(view.state),
    model: view.model,
    prompt: view.prompt,
    duration: view.requestedSeconds,
    seconds: view.seconds,
    progress: view.progress,
    created_at: view.createdAt,
    completed_at: view.completedAt,
    expires_at: view.expiresAt,
  };
  if (view.state === 'completed') body.video_url = videoUrlOf(view);
  if (view.state === 'failed') body.error = view.error?.message ?? 'The video could not be generated.';
  return body;
}
