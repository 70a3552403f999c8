import type { RefusedRequestCount } from '../storage/billing-records.js';

/** One request refused before any upstream call, as the counter groups it. */
export interface RefusedRequest {
  /** Unix milliseconds when the request arrived */
  receivedAt: number;
  userId: string;
  apiKeyId: string;
  model: string;
  /** HTTP status the client received */
  status: number;
  errorCode: string;
}

const millisecondsPerMinute = 60_000;

/**
 * Counts refused requests in memory per UTC minute, user, key, model, status and error code, so the batch writer
 * stores one row per group instead of one usage row per refusal (anyone signed up could otherwise write rows at
 * request rate). Holds at most `maximumGroups` groups: a refusal that would open one more is left out, and counted
 * in `dropped`.
 */
export class RefusedRequestCounter {
  private groups = new Map<string, RefusedRequestCount>();
  private droppedCount = 0;

  constructor(private readonly maximumGroups: number) {}

  /** Counts one refusal; false when it was left out (the counter holds `maximumGroups` other groups). */
  count(refusal: RefusedRequest): boolean {
    const minute = Math.floor(refusal.receivedAt / millisecondsPerMinute) * millisecondsPerMinute;
    return this.add({
      minute,
      userId: refusal.userId,
      apiKeyId: refusal.apiKeyId,
      model: refusal.model,
      status: refusal.status,
      errorCode: refusal.errorCode,
      count: 1,
    });
  }

  /** Takes every group counted so far; the counter starts empty again. */
  drain(): RefusedRequestCount[] {
    const drained = [...this.groups.values()];
    this.groups = new Map();
    return drained;
  }

  /** Puts back groups whose write failed, added to what was counted since (within the same bound). */
  restore(groups: readonly RefusedRequestCount[]): void {
    for (const group of groups) this.add({ ...group });
  }

  /** Groups counted and not yet drained. */
  get size(): number {
    return this.groups.size;
  }

  /** Refusals left out because the counter was full, since it was made. */
  get dropped(): number {
    return this.droppedCount;
  }

  private add(group: RefusedRequestCount): boolean {
    const key = [group.minute, group.userId, group.apiKeyId, group.model, group.status, group.errorCode].join('\u0000');
    const existing = this.groups.get(key);
    if (existing) {
      existing.count += group.count;
      return true;
    }
    if (this.groups.size >= this.maximumGroups) {
      this.droppedCount += group.count;
      return false;
    }
    this.groups.set(key, group);
    return true;
  }
}
