import type { VideoTaskState } from './video-task-service.js';

/**
 * Every allowed change of state, by source state: queued → in-progress | failed, in-progress → completed | failed,
 * and a running state to itself (a progress update). Completed and failed are final.
 */
export const videoTaskTransitions: Readonly<Record<VideoTaskState, readonly VideoTaskState[]>> = {
  queued: ['queued', 'in-progress', 'failed'],
  'in-progress': ['in-progress', 'completed', 'failed'],
  completed: [],
  failed: [],
};

/** The states a task may be in for a change to `target` (what the compare-and-swap's `state IN (...)` lists). */
export function sourceStatesOf(target: VideoTaskState): VideoTaskState[] {
  return (Object.keys(videoTaskTransitions) as VideoTaskState[]).filter((source) =>
    videoTaskTransitions[source].includes(target),
  );
}

/** True when the task will never change again (its hold is settled or released). */
export function isTerminalState(state: VideoTaskState): boolean {
  switch (state) {
    case 'queued':
    case 'in-progress':
      return false;
    case 'completed':
    case 'failed':
      return true;
    default: {
      const unreachable: never = state;
      throw new Error(`unknown video task state ${String(unreachable)}`);
    }
  }
}
