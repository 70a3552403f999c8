import { randomBytes } from 'node:crypto';
import { planVideoJob } from '../providers/video/plan-video-job.js';
import { isPortraitSize } from '../providers/video/video-size.js';
import { GatewayError } from '../core/gateway-error.js';
import { reserveTaskHold, writeTaskHoldChange } from '../billing/mirror-task-hold.js';
import { costOfVideoSeconds, lookUpVideoSecondPrice, type VideoSecondPrice } from '../billing/price-video-seconds.js';
import { createVideoTaskUsageLog, videoSubmitEndpoint } from '../billing/video-task-usage-log.js';
import { redactChannelSecrets } from '../dispatch/redact-channel-secrets.js';
import { withChannelOutcome, type ChannelAttemptResult } from '../dispatch/channel-attempt-result.js';
import { transportFailureOutcome } from '../dispatch/transport-failure-outcome.js';
import type { ObservedRequest } from '../dispatch/dispatch-observer.js';
import { tryChannelsWithBreakers } from '../dispatch/try-channels-with-breakers.js';
import { sendVideoVendorRequest } from '../dispatch/video/send-video-vendor-request.js';
import { mapStatusToChannelOutcome } from '../routing/channel-health/map-status-to-channel-outcome.js';
import type { VideoGenerationJob, VideoVendorAdapter } from '../providers/video/video-vendor-adapter.js';
import { orderChannelsForAttempt } from '../routing/order-channels-for-attempt.js';
import type { KeyPrincipal, RoutableChannel } from '../routing/routing-table.js';
import type { VideoTaskHoldOutcome, VideoTaskRecord } from '../storage/video-task-records.js';
import { finishVideoTask } from './finish-video-task.js';
import { adapterFor, type VideoTaskContext } from './video-task-context.js';
import type { VideoContent, VideoTaskService, VideoTaskSubmission, VideoTaskView } from './video-task-service.js';
import { isTerminalState } from './video-task-transitions.js';
import { toVideoTaskView } from './video-task-view.js';
import { nextPollDelayMs } from './video-poll-schedule.js';

/** A channel that can serve the submission, with its adapter and the job it would be asked for. */
interface VideoRoute {
  channel: RoutableChannel;
  adapter: VideoVendorAdapter;
  job: VideoGenerationJob;
}

/** What a client sees when no channel accepted the job and none refused it in words of its own. */
function noChannelAccepted(): GatewayError {
  return new GatewayError('service_unavailable', 'No channel accepted the video right now; retry later.', {
    headers: { 'retry-after': '30' },
  });
}

/** Spare time, beyond the upstream timeouts, before a task the vendor never acknowledged is failed by the poller. */
const submitGraceMs = 60_000;

/**
 * The task layer behind both video surfaces: submit holds the price durably (with the task row) before the vendor
 * call and fails the task (releasing the hold) when no channel accepts it; the poller (VideoTaskPoller) does the rest.
 */
export function createVideoTaskService(
  context: VideoTaskContext,
  options: { random?: () => number } = {},
): VideoTaskService {
  const { store, clock } = context;

  async function readOwnTask(principal: KeyPrincipal | null, taskId: string): Promise<VideoTaskRecord> {
    const task = await store.find(taskId);
    if (task === undefined || task.deletedAt !== null || (principal !== null && task.userId !== principal.userId)) {
      throw new GatewayError('not_found', `No video task ${taskId} exists.`, { param: 'video_id' });
    }
    if (clock() >= task.expiresAt) {
      throw new GatewayError(
        'not_found',
        `The video task ${taskId} expired: tasks and their videos are kept for ${Math.round(context.settings.retentionMs / 3_600_000)} hours after creation.`,
        { param: 'video_id' },
      );
    }
    return task;
  }

  function routesFor(submission: VideoTaskSubmission): VideoRoute[] {
    const channels = orderChannelsForAttempt(context.routing.current.channelsFor(submission.model.id), options.random);
    const routes: VideoRoute[] = [];
    for (const channel of channels) {
      const adapter = adapterFor(context, channel);
      if (adapter === undefined) continue;
      // A landscape twin (`sora-2-landscape`) names its vendor model in the catalog; a channel's mapping wins. An
      // OpenAI-surface `size` decides the orientation itself (OpenAI's `sora-2` at 1280x720 is landscape).
      const { size } = submission;
      const model = size
        ? {
            ...submission.model,
            videoOrientation: isPortraitSize(size) ? ('portrait' as const) : ('landscape' as const),
          }
        : submission.model;
      const planned = planVideoJob(model, submission.requestedSeconds, adapter, {
        durationParameter: submission.surface === 'spec' ? 'duration' : 'seconds',
        upstreamModelId: channel.modelMapping.get(submission.model.id),
        size,
      });
      const job = { ...planned, prompt: submission.prompt };
      routes.push({ channel, adapter, job });
    }
    if (routes.length === 0)
      throw new GatewayError(
        'service_unavailable',
        `No channel can make videos with ${submission.model.id} right now.`,
        { headers: { 'retry-after': '30' } },
      );
    // The hold covers the first channel's job: fail over only to channels that make the same video.
    const [first] = routes;
    return routes.filter(
      (route) =>
        route.job.seconds === first!.job.seconds &&
        route.job.width === first!.job.width &&
        route.job.height === first!.job.height,
    );
  }

  async function hold(
    submission: VideoTaskSubmission,
    route: VideoRoute,
    price: VideoSecondPrice,
    amount: number,
  ): Promise<VideoTaskRecord> {
    const now = clock();
    const { principal } = submission;
    const billing = context.billing;
    // Reserved like a request's hold (in Redis too, with several nodes) until the durable hold below is written.
    const reservation = billing ? await reserveTaskHold(billing, principal, amount) : undefined;
    const newTask = {
      id: `task_${randomBytes(16).toString('hex')}`,
      userId: principal.userId,
      apiKeyId: principal.apiKeyId,
      groupId: principal.groupId,
      surface: submission.surface,
      publicModel: submission.model.id,
      upstreamModel: route.job.upstreamModelId,
      prompt: submission.prompt,
      requestedSeconds: submission.requestedSeconds,
      seconds: route.job.seconds,
      width: route.job.width,
      height: route.job.height,
      createdAt: now,
      expiresAt: now + context.settings.retentionMs,
      heldAmount: amount,
      pricePerSecond: price.perSecond,
      priceRatioMillionths: price.priceRatioMillionths,
      // Until the vendor acknowledges it the submitting request owns the task; the poller fails it only after this.
      nextPollAt: now + context.dispatch.headersTimeoutMs + context.dispatch.bodyTimeoutMs + submitGraceMs,
      requestId: submission.requestId,
    };
    const write = () => store.createWithHold(newTask);
    let outcome: VideoTaskHoldOutcome;
    try {
      outcome = billing
        ? await writeTaskHoldChange(billing, write, (written) =>
            written.outcome === 'held'
              ? {
                  userId: principal.userId,
                  apiKeyId: principal.apiKeyId,
                  balanceChange: -amount,
                  keySpendChange: amount,
                  stored: written.balance,
                }
              : undefined,
          )
        : await write();
    } finally {
      // After the write, so the wallet already has the lower stored balance when the reservation leaves it.
      await reservation?.release();
    }
    if (outcome.outcome !== 'held') throw new GatewayError('insufficient_quota', refusalMessage(outcome.outcome));
    billing?.writer.enqueue(
      createVideoTaskUsageLog(outcome.task, {
        endpoint: videoSubmitEndpoint,
        status: 200,
        errorCode: null,
        finishedAt: clock(),
        cost: 0,
        pricing: null,
        clientIp: submission.clientIp,
      }),
      undefined,
    );
    return outcome.task;
  }

  /**
   * Sends the job through the failover loop with the breaker gate (routes in channel order, channels whose breaker is
   * open skipped, each answer recorded on the channel's breaker) until one accepts it; a final or last failure fails the
   * task (releasing the hold).
   */
  async function sendToVendor(
    task: VideoTaskRecord,
    routes: VideoRoute[],
    modelId: string,
    clientIp: string,
  ): Promise<VideoTaskRecord> {
    const routeOf = new Map(routes.map((route) => [route.channel, route]));
    let accepted: { channel: RoutableChannel; value: string };
    try {
      accepted = await tryChannelsWithBreakers({
        health: context.channelHealth,
        modelId,
        channels: routes.map((route) => route.channel),
        attempt: (channel) => submitOnRoute(task, routeOf.get(channel)!),
        observed: { observer: context.observer?.(), request: videoSubmissionOf(modelId) },
      });
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      // Kept failed and hidden: the row explains the hold and release ledger entries; the client only sees the error.
      const failed = await finishVideoTask(
        context,
        task,
        { kind: 'fail', code: 'vendor_rejected', message: error.message },
        clientIp,
      );
      if (failed) await store.markDeleted(task.id, clock());
      throw error;
    }
    const now = clock();
    const recorded = await store.recordSubmission(task.id, task.version, {
      channelId: accepted.channel.id,
      vendorTaskId: accepted.value,
      nextPollAt: now + nextPollDelayMs(task, now, 0),
    });
    if (recorded === undefined)
      throw new GatewayError('server_error', 'The video task changed while it was being submitted; see its status.');
    return recorded;
  }

  /** One submit to one route: the vendor's task id, or how the vendor refused (another channel may accept). */
  async function submitOnRoute(task: VideoTaskRecord, route: VideoRoute): Promise<ChannelAttemptResult<string>> {
    const request = route.adapter.encodeSubmit(route.job, route.channel);
    let answer;
    try {
      answer = await sendVideoVendorRequest(request, context.dispatch);
    } catch (error) {
      context.logger.warn(
        { err: error, channelId: route.channel.id, taskId: task.id },
        'video submit failed to reach the vendor; trying the next channel',
      );
      return withChannelOutcome(
        { kind: 'retryable-failure', error: noChannelAccepted() },
        transportFailureOutcome(error),
      );
    }
    if (answer.status >= 200 && answer.status < 300) {
      try {
        return { kind: 'success', value: route.adapter.decodeSubmit(answer.bodyText).vendorTaskId };
      } catch (error) {
        context.logger.error(
          { err: error, channelId: route.channel.id, taskId: task.id },
          'a video vendor accepted a job without a readable id',
        );
        // Not sent elsewhere: the vendor may be generating (and billing) the video already.
        const unreadable = new GatewayError(
          'server_error',
          'The video vendor gave an answer the gateway cannot read; nothing was charged.',
        );
        return withChannelOutcome({ kind: 'final-failure', error: unreadable }, { kind: 'inconclusive' });
      }
    }
    const failure = route.adapter.mapFailure(answer.status, answer.bodyText, answer.retryAfter);
    const outcome = mapStatusToChannelOutcome(answer.status, answer.retryAfter);
    if (failure.kind === 'success')
      return withChannelOutcome({ kind: 'retryable-failure', error: noChannelAccepted() }, outcome);
    // The vendor's text may quote the channel's own key or address (Gemini's errors do): redacted before a client sees it.
    const error = new GatewayError(failure.error.code, redactChannelSecrets(failure.error.message, route.channel), {
      param: failure.error.param,
      headers: failure.error.headers,
    });
    return withChannelOutcome({ kind: failure.kind, error }, outcome);
  }

  return {
    async submit(submission) {
      const routes = routesFor(submission);
      const first = routes[0]!;
      const price = context.billing
        ? lookUpVideoSecondPrice(context.billing.memory, submission.model, submission.principal.groupId)
        : { perSecond: 0, priceRatioMillionths: 1_000_000 };
      const amount = costOfVideoSeconds(price, first.job.seconds);
      const task = await hold(submission, first, price, amount);
      return toVideoTaskView(await sendToVendor(task, routes, submission.model.id, submission.clientIp));
    },

    async get(principal, taskId) {
      return toVideoTaskView(await readOwnTask(principal, taskId));
    },

    async list(principal, listOptions) {
      const limit = Math.max(1, Math.min(100, listOptions.limit));
      const tasks = await store.listForUser(principal.userId, {
        after: listOptions.after,
        limit: limit + 1,
        order: listOptions.order,
      });
      const now = clock();
      const visible = tasks.slice(0, limit);
      return {
        tasks: visible.filter((task) => task.expiresAt > now).map(toVideoTaskView),
        hasMore: tasks.length > limit,
      };
    },

    async delete(principal, taskId) {
      const task = await readOwnTask(principal, taskId);
      if (!isTerminalState(task.state)) {
        throw new GatewayError(
          'invalid_request_error',
          `The video task ${taskId} is ${task.state}; only a completed or failed task can be deleted.`,
          { param: 'video_id' },
        );
      }
      await store.markDeleted(task.id, clock());
      if (task.contentLocation !== null) await context.storage.remove(task.contentLocation);
    },

    async openContent(principal, taskId, variant): Promise<VideoContent> {
      const task = await readOwnTask(principal, taskId);
      if (task.state !== 'completed' || task.contentLocation === null) {
        throw new GatewayError(
          'not_found',
          `The video task ${taskId} is ${task.state}; its video is available once it completes.`,
          { param: 'video_id' },
        );
      }
      if (variant !== 'video')
        throw new GatewayError('not_found', `The video task ${taskId} has no ${variant}: only the video is stored.`, {
          param: 'variant',
        });
      const file = await context.storage.open(task.contentLocation);
      if (file === undefined)
        throw new GatewayError('not_found', `The video of task ${taskId} is no longer stored.`, { param: 'video_id' });
      return { body: file.body, contentType: 'video/mp4', length: file.length };
    },
  };
}

function refusalMessage(reason: 'insufficient' | 'debt' | 'cap'): string {
  switch (reason) {
    case 'insufficient':
      return 'You exceeded your current quota: the balance cannot cover this video. Top up your balance or ask for a shorter video.';
    case 'debt':
      return 'You exceeded your current quota: your account has an unpaid debt. Top up your balance: the debt is paid first, then requests are accepted again.';
    case 'cap':
      return 'You exceeded your current quota: this API key reached its spending cap.';
    default: {
      const unreachable: never = reason;
      throw new Error(`unknown refusal ${String(unreachable)}`);
    }
  }
}

/** A video submission as telemetry names it: the conventions' `generate_content`, never streamed. */
function videoSubmissionOf(modelId: string): ObservedRequest {
  return { modelId, stream: false, operationName: 'generate_content' };
}
