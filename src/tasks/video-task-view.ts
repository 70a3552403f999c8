import type { VideoTaskRecord } from '../storage/video-task-records.js';
import type { VideoTaskView } from './video-task-service.js';

/** A stored task as the HTTP surfaces show it: no vendor ids, channel or money; times in Unix seconds. */
export function toVideoTaskView(task: VideoTaskRecord): VideoTaskView {
  const toSeconds = (milliseconds: number) => Math.floor(milliseconds / 1000);
  return {
    id: task.id,
    surface: task.surface,
    state: task.state,
    model: task.publicModel,
    prompt: task.prompt,
    requestedSeconds: task.requestedSeconds,
    seconds: task.seconds,
    width: task.width,
    height: task.height,
    progress: task.state === 'completed' ? 100 : Math.min(99, task.progress),
    createdAt: toSeconds(task.createdAt),
    completedAt: task.completedAt === null ? null : toSeconds(task.completedAt),
    expiresAt: toSeconds(task.expiresAt),
    error:
      task.state === 'failed'
        ? { code: task.errorCode ?? 'vendor_failed', message: task.errorMessage ?? 'The video could not be generated.' }
        : null,
  };
}
