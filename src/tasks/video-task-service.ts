import type { Readable } from 'node:stream';
import type { CatalogModel } from '../routing/catalog-model.js';
import type { KeyPrincipal } from '../routing/routing-table.js';

/** Which HTTP surface created a task: it decides defaults and how the task is shown, nothing else. */
export type VideoTaskSurface = 'spec' | 'openai';

/** The life of a task; every change is a compare-and-swap on its version (see the task layer). */
export type VideoTaskState = 'queued' | 'in-progress' | 'completed' | 'failed';

/** One task as the HTTP surfaces show it (never the vendor's ids or URLs). */
export interface VideoTaskView {
  /** `task_` + random; the same public id on both surfaces */
  id: string;
  surface: VideoTaskSurface;
  state: VideoTaskState;
  /** the public model id asked for (with `-landscape` when asked) */
  model: string;
  prompt: string;
  /** the length the client asked for (spec `duration`, OpenAI `seconds`) */
  requestedSeconds: number;
  /** the length the vendor makes (and bills), nearest to the one asked */
  seconds: number;
  /** pixels */
  width: number;
  /** pixels */
  height: number;
  /** 0–100; 100 exactly when completed */
  progress: number;
  /** Unix seconds */
  createdAt: number;
  /** Unix seconds, null until completed or failed */
  completedAt: number | null;
  /** Unix seconds: after it the task answers 404 on both surfaces */
  expiresAt: number;
  /** set when failed: `code` e.g. `task_timeout`, `content_filtered`, `vendor_failed`; `message` safe to show */
  error: { code: string; message: string } | null;
}

/** What a client submits, validated by its surface. */
export interface VideoTaskSubmission {
  principal: KeyPrincipal;
  /** the resolved catalog model (a video model the key's group serves) */
  model: CatalogModel;
  prompt: string;
  requestedSeconds: number;
  surface: VideoTaskSurface;
  /** OpenAI surface: the `size` asked (`720x1280`); spec surface: derived from the model id's orientation */
  size?: { width: number; height: number };
  /** the request's id, kept on the task's usage logs */
  requestId: string;
  clientIp: string;
}

/** A page of a key owner's tasks, newest first unless asked otherwise. */
export interface VideoTaskPage {
  tasks: VideoTaskView[];
  hasMore: boolean;
}

/** The finished video (or a variant), streamed from the gateway's storage or the vendor. */
export interface VideoContent {
  body: Readable;
  contentType: string;
  /** bytes, when known */
  length: number | undefined;
}

/**
 * The task layer as the HTTP surfaces use it. Every method throws a GatewayError for the client: 400 (a model, size
 * or duration the vendor cannot make, before any money is held), 429 `insufficient_quota` (nothing held, no vendor
 * call), 404 for another user's task or an expired one (with a message that says which, without revealing the owner).
 */
export interface VideoTaskService {
  /** holds the price durably, submits to the vendor through dispatch, and returns the queued task */
  submit(submission: VideoTaskSubmission): Promise<VideoTaskView>;
  /** a task of the principal's user */
  get(principal: KeyPrincipal, taskId: string): Promise<VideoTaskView>;
  /** the principal's user's tasks; `after` is a task id (cursor), `limit` 1–100 */
  list(
    principal: KeyPrincipal,
    options: { after?: string; limit: number; order: 'asc' | 'desc' },
  ): Promise<VideoTaskPage>;
  /** deletes a finished task and its stored video; a task still running → 400 naming the state */
  delete(principal: KeyPrincipal, taskId: string): Promise<void>;
  /** the completed task's video; `principal` null when the caller proved access with a signed URL instead of a key */
  openContent(
    principal: KeyPrincipal | null,
    taskId: string,
    variant: 'video' | 'thumbnail' | 'spritesheet',
  ): Promise<VideoContent>;
}
