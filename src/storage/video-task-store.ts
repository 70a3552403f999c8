import type {
  NewVideoTask,
  VideoTaskRowState,
  TaskHoldMismatch,
  VideoTaskChange,
  VideoTaskHoldOutcome,
  VideoTaskRecord,
  VideoTaskWriteOutcome,
} from './video-task-records.js';

/**
 * Durable video tasks. Money moves only in the same transaction as the task row: the hold with the insert, the
 * settlement or release with the terminal compare-and-swap, so it happens exactly once whoever wins a race.
 */
export interface VideoTaskStore {
  /**
   * inserts the queued task and holds `heldAmount`: the balance goes down, a `hold` ledger entry and the key's spend
   * go up, in one transaction that bumps the billing revision; nothing is written unless it returns `held`
   */
  createWithHold(task: NewVideoTask): Promise<VideoTaskHoldOutcome>;
  /** records the channel and the vendor's job id of a queued task (compare-and-swap on `version`) */
  recordSubmission(
    taskId: string,
    version: number,
    submission: { channelId: string; vendorTaskId: string; nextPollAt: number },
  ): Promise<VideoTaskRecord | undefined>;
  /**
   * one compare-and-swap change from `version` when the state is one of `from` (the task layer's transition table); terminal changes settle or release the
   * hold in the same transaction; `stale` when the task moved meanwhile or the transition is not allowed
   */
  change(
    taskId: string,
    version: number,
    from: readonly VideoTaskRowState[],
    change: VideoTaskChange,
    now: number,
  ): Promise<VideoTaskWriteOutcome>;
  find(taskId: string): Promise<VideoTaskRecord | undefined>;
  /** a user's tasks not deleted, ordered by creation; `after` is a task id cursor */
  listForUser(
    userId: string,
    options: { after?: string; limit: number; order: 'asc' | 'desc' },
  ): Promise<VideoTaskRecord[]>;
  /** marks a task deleted (the row stays for its ledger entries) */
  markDeleted(taskId: string, now: number): Promise<void>;
  /**
   * leases up to `limit` tasks that are due (queued or in-progress with `nextPollAt` passed, or finished and
   * expired with a stored file) and whose lease is free or lapsed, for `leaseMs`
   */
  claimDue(owner: string, now: number, leaseMs: number, limit: number): Promise<VideoTaskRecord[]>;
  /** frees a lease this owner holds and sets the next poll (a poll that changed nothing, e.g. after a vendor 429) */
  releaseLease(taskId: string, owner: string, update: { nextPollAt: number; pollAttempts: number }): Promise<void>;
  /** records that the stored file of an expired task was removed */
  markContentRemoved(taskId: string, now: number): Promise<void>;
  /** tasks whose hold does not add up: terminal with a hold, open without one, ledger not matching */
  findTaskHoldMismatches(): Promise<TaskHoldMismatch[]>;
}
