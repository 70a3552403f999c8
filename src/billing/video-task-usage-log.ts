import { createRecordId } from '../core/create-record-id.js';
import type { RequestPricing } from './request-pricing.js';
import type { UsageLogRecord } from '../storage/billing-records.js';
import type { VideoTaskRecord } from '../storage/video-task-records.js';

/** Usage log endpoint of a video submit (its hold). */
export const videoSubmitEndpoint = 'videos';
/** Usage log endpoint of a video task's settlement or release. */
export const videoSettlementEndpoint = 'videos.settlement';

/**
 * A usage log row of a video task: the submit (cost 0: the hold is not a charge) or the settlement (the charge,
 * priced for the seconds generated; 0 when the task failed and its hold was released).
 */
export function createVideoTaskUsageLog(
  task: VideoTaskRecord,
  details: {
    endpoint: string;
    status: number;
    errorCode: string | null;
    finishedAt: number;
    cost: number;
    pricing: RequestPricing | null;
    clientIp: string;
  },
): UsageLogRecord {
  return {
    id: createRecordId('use', details.finishedAt),
    createdAt: details.endpoint === videoSubmitEndpoint ? task.createdAt : details.finishedAt,
    userId: task.userId,
    apiKeyId: task.apiKeyId,
    model: task.publicModel,
    channelId: task.channelId,
    endpoint: details.endpoint,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cost: details.cost,
    status: details.status,
    errorCode: details.errorCode,
    latencyMs: Math.max(0, details.finishedAt - task.createdAt),
    firstTokenMs: null,
    streamed: false,
    clientIp: details.clientIp,
    requestId: task.requestId,
    pricing: details.pricing,
  };
}
