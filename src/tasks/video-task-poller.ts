import { randomBytes } from 'node:crypto';
import { redactChannelSecrets } from '../dispatch/redact-channel-secrets.js';
import { openVideoDownload } from '../dispatch/video/open-video-download.js';
import { sendVideoVendorRequest } from '../dispatch/video/send-video-vendor-request.js';
import type { VideoVendorAdapter } from '../providers/video/video-vendor-adapter.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { VideoTaskRecord } from '../storage/video-task-records.js';
import { finishVideoTask } from './finish-video-task.js';
import { storeVideoDownload } from './store-video-download.js';
import { adapterFor, videoStorageKey, type VideoTaskContext } from './video-task-context.js';
import { nextPollDelayMs, parseRetryAfterMs } from './video-poll-schedule.js';
import { isTerminalState, sourceStatesOf } from './video-task-transitions.js';

/** Runs work every `intervalMs` until stopped; injected so tests drive the poller by hand and never sleep. */
export interface PollScheduler {
  /** `onError` hears every rejection of `work` (a store outage, a bug); the schedule carries on at the next tick */
  every(intervalMs: number, work: () => Promise<void>, onError: (error: unknown) => void): { stop(): void };
}

/**
 * The real scheduler: an unref'd interval that never overlaps itself. A look that rejects (PostgreSQL restarting
 * answers `claimDue` with 57P01/57P03) is handed to `onError` and the next tick looks again: an unhandled rejection
 * here would end the process.
 */
export const intervalPollScheduler: PollScheduler = {
  every(intervalMs, work, onError) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      let look: Promise<void>;
      try {
        look = work();
      } catch (error) {
        look = Promise.reject(error);
      }
      void look
        .catch((error: unknown) => {
          try {
            onError(error);
          } catch {
            // A failing error handler (a broken log destination) must not stop the poller either.
          }
        })
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  },
};

/** Tasks claimed per look. */
const claimBatchSize = 20;

/**
 * Drives video tasks to the end: claims due tasks under a row lease (several gateways may run pollers; a dead one's
 * leases lapse and another picks its tasks up), polls the vendor, downloads finished videos into storage, times
 * tasks out, and removes the files of expired tasks. Every state change is a compare-and-swap, so a poller that
 * lost its lease and raced another settles nothing twice.
 */
export class VideoTaskPoller {
  /** this poller's lease owner name */
  readonly owner = `poller_${randomBytes(8).toString('hex')}`;
  private running: { stop(): void } | undefined;
  private current: Promise<void> = Promise.resolve();
  /** aborted by `stop`: a download in progress is cut rather than holding the shutdown for the length of a video */
  private downloads = new AbortController();

  constructor(
    private readonly context: VideoTaskContext,
    private readonly scheduler: PollScheduler = intervalPollScheduler,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = this.scheduler.every(
      this.context.settings.pollIntervalMs,
      () => this.pollOnce(),
      (error) =>
        this.context.logger.error(
          { err: error },
          'a video poller look failed (is the database reachable?); the poller looks again at the next tick',
        ),
    );
  }

  /**
   * Stops looking for tasks and waits for the look in progress; its leases lapse if it is cut short. A video download
   * in progress is cut: its partial file is removed and its task is downloaded again by the next look, here or on
   * another gateway.
   */
  async stop(): Promise<void> {
    this.running?.stop();
    this.running = undefined;
    this.downloads.abort(new Error('the video poller is stopping'));
    await this.current;
    this.downloads = new AbortController();
  }

  /** One look: claims due tasks and handles each; errors are logged and the task is retried later. */
  pollOnce(): Promise<void> {
    const look = this.current.then(() => this.claimAndHandle());
    this.current = look.catch(() => undefined);
    return look;
  }

  private async claimAndHandle(): Promise<void> {
    const { store, clock, settings, logger } = this.context;
    const tasks = await store.claimDue(this.owner, clock(), settings.leaseMs, claimBatchSize);
    for (const task of tasks) {
      try {
        await this.handle(task);
      } catch (error) {
        logger.error({ err: error, taskId: task.id }, 'handling a video task failed; it is retried later');
        await this.retryLater(task, task.pollAttempts + 1, undefined).catch(() => undefined);
      }
    }
  }

  private async handle(task: VideoTaskRecord): Promise<void> {
    const { clock, settings } = this.context;
    const now = clock();
    if (isTerminalState(task.state)) return this.removeExpiredContent(task);
    if (now - task.createdAt >= settings.timeoutMs) return this.timeOut(task);
    if (task.vendorTaskId === null || task.channelId === null) {
      // The submitting request never recorded the vendor's id (the gateway stopped mid-submit): nothing to poll.
      await finishVideoTask(this.context, task, {
        kind: 'fail',
        code: 'vendor_failed',
        message: 'The video was never accepted by the vendor; nothing was charged.',
      });
      return;
    }
    const route = this.routeOf(task);
    if (route === undefined) return this.retryLater(task, task.pollAttempts + 1, undefined);
    let answer;
    try {
      answer = await sendVideoVendorRequest(
        route.adapter.encodePoll(task.vendorTaskId, route.channel),
        this.context.dispatch,
      );
    } catch {
      return this.retryLater(task, task.pollAttempts + 1, undefined);
    }
    // A redirect on a poll is the vendor misbehaving, not an answer about the job: retried like a 5xx (bounded by the timeout).
    const vendorFault = answer.status === 429 || answer.status >= 500 || (answer.status >= 300 && answer.status < 400);
    if (vendorFault) return this.retryLater(task, task.pollAttempts + 1, parseRetryAfterMs(answer.retryAfter, now));
    if (answer.status < 200 || answer.status >= 300) {
      const failure = route.adapter.mapFailure(answer.status, answer.bodyText, answer.retryAfter);
      // 404: the vendor no longer knows the job (it vanished); its text may quote the channel's key or address.
      const message =
        failure.kind === 'success' || answer.status === 404
          ? 'The video vendor lost the video job. Nothing was charged.'
          : redactChannelSecrets(failure.error.message, route.channel);
      await finishVideoTask(this.context, task, { kind: 'fail', code: 'vendor_failed', message });
      return;
    }
    const status = route.adapter.decodePoll(answer.bodyText, {
      upstreamModelId: task.upstreamModel,
      prompt: task.prompt,
      seconds: task.seconds,
      width: task.width,
      height: task.height,
    });
    switch (status.state) {
      case 'queued':
      case 'in-progress': {
        const progress = status.progress ?? task.progress;
        // A task never goes back to queued, whatever a vendor reports.
        const target = status.state === 'in-progress' || task.state === 'in-progress' ? 'in-progress' : 'queued';
        let current = task;
        if (target !== task.state || progress !== task.progress) {
          const written = await this.context.store.change(
            task.id,
            task.version,
            sourceStatesOf(target),
            { kind: 'progress', state: target, progress },
            now,
          );
          if (written.outcome === 'stale') return;
          current = written.task;
        }
        return this.retryLater(current, 0, undefined);
      }
      case 'completed':
        return this.complete(task, route, status.seconds, status.contentReference);
      case 'failed':
        await finishVideoTask(this.context, task, {
          kind: 'fail',
          code: status.code,
          message: redactChannelSecrets(status.message, route.channel),
        });
        return;
      default: {
        const unreachable: never = status;
        throw new Error(`unknown vendor status ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Downloads the video into storage, then completes the task (a failed download is retried at the next poll). */
  private async complete(
    task: VideoTaskRecord,
    route: { channel: RoutableChannel; adapter: VideoVendorAdapter },
    generatedSeconds: number,
    contentReference: string,
  ): Promise<void> {
    const { store, clock, storage } = this.context;
    let current = task;
    if (task.state === 'queued') {
      // The table has no queued → completed: a job finished between two polls passes through in-progress.
      const started = await store.change(
        task.id,
        task.version,
        sourceStatesOf('in-progress'),
        { kind: 'progress', state: 'in-progress', progress: task.progress },
        clock(),
      );
      if (started.outcome === 'stale') return;
      current = started.task;
    }
    const request = route.adapter.encodeDownload(contentReference, route.channel, 'video');
    if (request === undefined) throw new Error(`the ${route.adapter.protocol} adapter cannot download videos`);
    const { download: downloadSettings } = this.context;
    const opened = await openVideoDownload(request, new URL(route.channel.baseUrl).origin, {
      dispatch: this.context.dispatch,
      ...downloadSettings,
      signal: this.downloads.signal,
    });
    if (opened.kind === 'failed') return this.downloadFailed(current, opened);
    const key = videoStorageKey(task.id);
    const stored = await storeVideoDownload(opened, key, { storage, maxBytes: downloadSettings.maxBytes });
    if (stored.kind === 'failed') return this.downloadFailed(current, stored);
    const finished = await finishVideoTask(this.context, current, {
      kind: 'complete',
      generatedSeconds,
      contentLocation: key,
    });
    // Another poller finished it first with the same file under the same key: leave that file in place.
    if (finished === undefined)
      this.context.logger.info({ taskId: task.id }, 'video task was finished by another poller');
  }

  /**
   * A download that did not end in a stored file: retried at the next poll (bounded by the task timeout, which then
   * fails the task and releases its hold), or, when trying again cannot help (too large, a refused address), failed now.
   */
  private async downloadFailed(
    task: VideoTaskRecord,
    failure: { reason: string; retryable: boolean; detail: string },
  ): Promise<void> {
    const { logger } = this.context;
    if (failure.retryable) {
      logger.warn(
        { taskId: task.id, reason: failure.reason, detail: failure.detail },
        'downloading a finished video failed; it is retried at the next poll',
      );
      return this.retryLater(task, task.pollAttempts + 1, undefined);
    }
    logger.error(
      { taskId: task.id, reason: failure.reason, detail: failure.detail },
      'a finished video cannot be downloaded; the task fails and its hold is released',
    );
    const ending =
      failure.reason === 'too-large'
        ? {
            code: 'video_too_large',
            message: `The finished video is larger than this gateway stores (${this.context.download.maxBytes} bytes). Nothing was charged.`,
          }
        : {
            code: 'vendor_failed',
            message: 'The video vendor named a download address the gateway refuses to fetch. Nothing was charged.',
          };
    await finishVideoTask(this.context, task, { kind: 'fail', ...ending });
  }

  /** Past the timeout: cancels at the vendor when the adapter can (best effort), then fails and releases the hold. */
  private async timeOut(task: VideoTaskRecord): Promise<void> {
    const route = this.routeOf(task);
    if (route?.adapter.encodeCancel && task.vendorTaskId !== null) {
      await sendVideoVendorRequest(
        route.adapter.encodeCancel(task.vendorTaskId, route.channel),
        this.context.dispatch,
      ).catch((error: unknown) =>
        this.context.logger.warn({ err: error, taskId: task.id }, 'cancelling a timed-out video at the vendor failed'),
      );
    }
    const minutes = Math.round(this.context.settings.timeoutMs / 60_000);
    await finishVideoTask(this.context, task, {
      kind: 'fail',
      code: 'task_timeout',
      message: `The video task timed out: it did not finish within ${minutes} minutes. Nothing was charged.`,
    });
  }

  private async removeExpiredContent(task: VideoTaskRecord): Promise<void> {
    if (task.contentLocation !== null) await this.context.storage.remove(task.contentLocation);
    await this.context.store.markContentRemoved(task.id, this.context.clock());
  }

  private routeOf(task: VideoTaskRecord): { channel: RoutableChannel; adapter: VideoVendorAdapter } | undefined {
    const channel = this.context.routing.current
      .channelsFor(task.publicModel)
      .find((candidate) => candidate.id === task.channelId);
    const adapter = channel && adapterFor(this.context, channel);
    return channel && adapter ? { channel, adapter } : undefined;
  }

  private async retryLater(
    task: VideoTaskRecord,
    failuresInARow: number,
    retryAfterMs: number | undefined,
  ): Promise<void> {
    const now = this.context.clock();
    await this.context.store.releaseLease(task.id, this.owner, {
      nextPollAt: now + nextPollDelayMs(task, now, failuresInARow, retryAfterMs),
      pollAttempts: failuresInARow,
    });
  }
}
