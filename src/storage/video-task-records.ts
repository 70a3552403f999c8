import type { StoredBalance } from './billing-records.js';

/** A task's state as stored (the task layer's VideoTaskState; storage does not import the task layer). */
export type VideoTaskRowState = 'queued' | 'in-progress' | 'completed' | 'failed';

/** The surface that created a task, as stored. */
export type VideoTaskRowSurface = 'spec' | 'openai';

/** One video task as stored; money in micro-units, times in Unix milliseconds. */
export interface VideoTaskRecord {
  id: string;
  userId: string;
  apiKeyId: string;
  groupId: string;
  surface: VideoTaskRowSurface;
  publicModel: string;
  upstreamModel: string;
  channelId: string | null;
  /** private: never shown to clients */
  vendorTaskId: string | null;
  prompt: string;
  requestedSeconds: number;
  /** the length the vendor makes, which the hold covers */
  seconds: number;
  width: number;
  height: number;
  state: VideoTaskRowState;
  /** 0–100 */
  progress: number;
  /** bumped by every compare-and-swap write */
  version: number;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  expiresAt: number;
  deletedAt: number | null;
  /** micro-units held at submit */
  heldAmount: number;
  /** micro-units still held: `heldAmount` until the terminal transition, then 0 */
  openHold: number;
  /** micro-units charged at completion */
  settledAmount: number;
  /** micro-units per second before the ratio, as priced at submit */
  pricePerSecond: number;
  priceRatioMillionths: number;
  generatedSeconds: number | null;
  /** private: what the vendor adapter needs to download the video */
  contentReference: string | null;
  nextPollAt: number;
  pollAttempts: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  /** storage key of the downloaded video, or null */
  contentLocation: string | null;
  contentRemovedAt: number | null;
  requestId: string;
}

/** What submit stores before calling the vendor: the queued task and the amount to hold. */
export type NewVideoTask = Omit<
  VideoTaskRecord,
  | 'channelId'
  | 'vendorTaskId'
  | 'state'
  | 'progress'
  | 'version'
  | 'errorCode'
  | 'errorMessage'
  | 'startedAt'
  | 'completedAt'
  | 'deletedAt'
  | 'openHold'
  | 'settledAmount'
  | 'generatedSeconds'
  | 'contentReference'
  | 'pollAttempts'
  | 'leaseOwner'
  | 'leaseUntil'
  | 'contentLocation'
  | 'contentRemovedAt'
>;

/** A non-terminal change: progress or queued → in-progress; no money moves. */
export interface VideoTaskProgressChange {
  kind: 'progress';
  state: 'queued' | 'in-progress';
  progress: number;
}

/** in-progress → completed: charges `cost` (at most the hold) and releases the rest. */
export interface VideoTaskCompletion {
  kind: 'complete';
  /** micro-units charged */
  cost: number;
  generatedSeconds: number;
  contentLocation: string;
}

/** queued | in-progress → failed: releases the whole hold. */
export interface VideoTaskFailure {
  kind: 'fail';
  code: string;
  message: string;
}

/** One compare-and-swap change of a task. */
export type VideoTaskChange = VideoTaskProgressChange | VideoTaskCompletion | VideoTaskFailure;

/** How a compare-and-swap write ended: `stale` when another writer changed the task first (nothing was written). */
export type VideoTaskWriteOutcome =
  | { outcome: 'applied'; task: VideoTaskRecord; balance: StoredBalance | undefined; released: number; charged: number }
  | { outcome: 'stale' };

/** How holding at submit ended; nothing is stored unless `held`. */
export type VideoTaskHoldOutcome =
  { outcome: 'held'; task: VideoTaskRecord; balance: StoredBalance } | { outcome: 'insufficient' | 'debt' | 'cap' };

/** A task whose hold does not add up (found by `gateway billing verify`). */
export interface TaskHoldMismatch {
  taskId: string;
  userId: string;
  state: string;
  /** what is wrong, e.g. `terminal task keeps a hold` */
  problem: string;
}
