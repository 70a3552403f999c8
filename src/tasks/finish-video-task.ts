import { writeTaskHoldChange } from '../billing/mirror-task-hold.js';
import { costOfVideoSeconds, priceVideoSeconds } from '../billing/price-video-seconds.js';
import { createVideoTaskUsageLog, videoSettlementEndpoint } from '../billing/video-task-usage-log.js';
import type { VideoTaskRecord, VideoTaskWriteOutcome } from '../storage/video-task-records.js';
import type { VideoTaskContext } from './video-task-context.js';
import { sourceStatesOf } from './video-task-transitions.js';

/** How a task ends: completed with the seconds generated and where the video is stored, or failed. */
export type VideoTaskEnding =
  | { kind: 'complete'; generatedSeconds: number; contentLocation: string }
  | { kind: 'fail'; code: string; message: string };

/**
 * Moves a task to its terminal state by compare-and-swap from the version the caller read; the same transaction
 * settles (completion: the seconds generated, at most the seconds held; the rest released) or releases the hold.
 * Returns the finished task, or undefined when another writer changed it first (then nothing was charged).
 */
export async function finishVideoTask(
  context: VideoTaskContext,
  task: VideoTaskRecord,
  ending: VideoTaskEnding,
  clientIp = '',
): Promise<VideoTaskRecord | undefined> {
  const now = context.clock();
  const price = { perSecond: task.pricePerSecond, priceRatioMillionths: task.priceRatioMillionths };
  const billedSeconds = ending.kind === 'complete' ? Math.min(ending.generatedSeconds, task.seconds) : 0;
  const write = (): Promise<VideoTaskWriteOutcome> =>
    ending.kind === 'complete'
      ? context.store.change(
          task.id,
          task.version,
          sourceStatesOf('completed'),
          {
            kind: 'complete',
            cost: costOfVideoSeconds(price, billedSeconds),
            generatedSeconds: ending.generatedSeconds,
            contentLocation: ending.contentLocation,
          },
          now,
        )
      : context.store.change(
          task.id,
          task.version,
          sourceStatesOf('failed'),
          { kind: 'fail', code: ending.code, message: ending.message },
          now,
        );
  const billing = context.billing;
  const outcome = billing
    ? await writeTaskHoldChange(billing, write, (written) =>
        written.outcome === 'applied' && written.balance
          ? {
              userId: task.userId,
              apiKeyId: task.apiKeyId,
              balanceChange: written.released - written.charged,
              keySpendChange: written.charged - written.released,
              stored: written.balance,
            }
          : undefined,
      )
    : await write();
  if (outcome.outcome === 'stale') return undefined;
  billing?.writer.enqueue(
    createVideoTaskUsageLog(outcome.task, {
      endpoint: videoSettlementEndpoint,
      status: ending.kind === 'complete' ? 200 : 500,
      errorCode: ending.kind === 'complete' ? null : ending.code,
      finishedAt: now,
      cost: outcome.charged,
      pricing: ending.kind === 'complete' ? priceVideoSeconds(price, billedSeconds) : null,
      clientIp,
    }),
    undefined,
  );
  context.logger.info(
    { taskId: task.id, state: outcome.task.state, charged: outcome.charged, released: outcome.released },
    'video task finished',
  );
  return outcome.task;
}
