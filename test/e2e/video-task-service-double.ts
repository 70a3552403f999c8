// An in-memory VideoTaskService for the route tests of both video surfaces: it keeps tasks per owner, expires them
// on an injected clock and lets a test move a task through its states. The real task layer is tested on its own.
import { Readable } from 'node:stream';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { KeyPrincipal } from '../../src/routing/routing-table.js';
import type {
  VideoContent,
  VideoTaskPage,
  VideoTaskService,
  VideoTaskSubmission,
  VideoTaskView,
} from '../../src/tasks/video-task-service.js';

/** Bytes of a tiny MP4 (an `ftyp` box), what the double serves as a finished video. */
export const doubleVideoBytes = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'ascii'),
  Buffer.alloc(12),
]);
/** Bytes the double serves as a thumbnail (a WebP header). */
export const doubleThumbnailBytes = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1');

/** The lengths the double's vendor makes, like Sora. */
const vendorSeconds = [4, 8, 12];

/** The double, with what a test needs to drive and inspect it. */
export interface VideoTaskServiceDouble extends VideoTaskService {
  /** every submission received, in order */
  submissions: VideoTaskSubmission[];
  /** the calls to openContent: who asked (null = signed URL) and for what */
  contentRequests: Array<{ principal: KeyPrincipal | null; taskId: string; variant: string }>;
  /** changes a stored task as the poller would */
  update(taskId: string, change: Partial<VideoTaskView>): VideoTaskView;
  /** the next submit fails with this error (e.g. a 429 insufficient_quota) */
  failNextSubmit(error: GatewayError): void;
}

/** A double whose clock is `now()` (Unix milliseconds). */
export function createVideoTaskServiceDouble(now: () => number): VideoTaskServiceDouble {
  const tasks = new Map<string, { view: VideoTaskView; ownerUserId: string }>();
  let counter = 0;
  let nextSubmitError: GatewayError | undefined;
  const nowSeconds = () => Math.floor(now() / 1000);

  const visibleTask = (principal: KeyPrincipal | null, taskId: string) => {
    const task = tasks.get(taskId);
    if (!task || (principal !== null && task.ownerUserId !== principal.userId)) {
      throw new GatewayError('not_found', `No video task found with id '${taskId}'.`);
    }
    if (task.view.expiresAt <= nowSeconds())
      throw new GatewayError('not_found', `The video task '${taskId}' has expired (tasks are kept 24 hours).`);
    return task;
  };

  return {
    submissions: [],
    contentRequests: [],
    failNextSubmit(error) {
      nextSubmitError = error;
    },
    update(taskId, change) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no task ${taskId}`);
      task.view = { ...task.view, ...change };
      return task.view;
    },
    async submit(submission) {
      this.submissions.push(submission);
      if (nextSubmitError) {
        const error = nextSubmitError;
        nextSubmitError = undefined;
        throw error;
      }
      counter += 1;
      const id = `task_double${String(counter).padStart(4, '0')}`;
      const landscape = submission.model.id.endsWith('-landscape');
      const size = submission.size ?? (landscape ? { width: 1280, height: 720 } : { width: 720, height: 1280 });
      const seconds = vendorSeconds.reduce((best, candidate) =>
        Math.abs(candidate - submission.requestedSeconds) < Math.abs(best - submission.requestedSeconds)
          ? candidate
          : best,
      );
      const view: VideoTaskView = {
        id,
        surface: submission.surface,
        state: 'queued',
        model: submission.model.id,
        prompt: submission.prompt,
        requestedSeconds: submission.requestedSeconds,
        seconds,
        width: size.width,
        height: size.height,
        progress: 0,
        createdAt: nowSeconds(),
        completedAt: null,
        expiresAt: nowSeconds() + 24 * 3600,
        error: null,
      };
      tasks.set(id, { view, ownerUserId: submission.principal.userId });
      return view;
    },
    async get(principal, taskId) {
      return visibleTask(principal, taskId).view;
    },
    async list(principal, options): Promise<VideoTaskPage> {
      const owned = [...tasks.values()]
        .filter((task) => task.ownerUserId === principal.userId && task.view.expiresAt > nowSeconds())
        .map((task) => task.view);
      const ordered = options.order === 'asc' ? owned : owned.reverse();
      const start = options.after === undefined ? 0 : ordered.findIndex((view) => view.id === options.after) + 1;
      const page = ordered.slice(start, start + options.limit);
      return { tasks: page, hasMore: start + options.limit < ordered.length };
    },
    async delete(principal, taskId) {
      const task = visibleTask(principal, taskId);
      if (task.view.state === 'queued' || task.view.state === 'in-progress') {
        throw new GatewayError(
          'invalid_request_error',
          `The video '${taskId}' is still ${task.view.state}; only a completed or failed video can be deleted.`,
        );
      }
      tasks.delete(taskId);
    },
    async openContent(principal, taskId, variant): Promise<VideoContent> {
      this.contentRequests.push({ principal, taskId, variant });
      const task = visibleTask(principal, taskId);
      if (task.view.state !== 'completed')
        throw new GatewayError('not_found', `The video '${taskId}' is not completed yet.`);
      const bytes = variant === 'video' ? doubleVideoBytes : doubleThumbnailBytes;
      return {
        body: Readable.from([bytes]),
        contentType: variant === 'video' ? 'video/mp4' : 'image/webp',
        length: bytes.length,
      };
    },
  };
}
