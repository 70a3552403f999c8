import { GatewayError } from '../../core/gateway-error.js';

/** What a held thread replays: the fields fixed at its creation and the conversation so far (oldest first). */
export interface MessagesThreadHistory {
  /** the `system` of the request that created the thread; undefined when it had none */
  system: unknown;
  /** the `tools` of the request that created the thread; undefined when it had none */
  tools: unknown;
  /** every message of every turn, each turn's answer included, without `cache_control` */
  messages: unknown[];
}

/** Request fields a thread takes from its creation; a `continue` that repeats them is refused, as Anthropic does. */
const createOnlyFields = ['system', 'tools'] as const;

/**
 * The whole Messages body a `continue` stands for: the thread's `system` and `tools`, its history, then the
 * request's new messages; every other field is the request's own, and `thread` is gone (no vendor sees it).
 */
export function continuedMessagesBody(
  body: Readonly<Record<string, unknown>>,
  history: MessagesThreadHistory,
): Record<string, unknown> {
  for (const field of createOnlyFields) {
    if (body[field] !== undefined) {
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${field}': a thread keeps the '${field}' it was created with, so a 'continue' may not send it; start a new thread to change it.`,
        { param: field },
      );
    }
  }
  const { thread: _thread, ...fields } = body;
  return {
    ...fields,
    ...(history.system === undefined ? {} : { system: history.system }),
    ...(history.tools === undefined ? {} : { tools: history.tools }),
    messages: [...history.messages, ...newMessagesOf(body)],
  };
}

/** The body without its `thread` field: what a `create` turn is served as. */
export function withoutThreadField(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { thread: _thread, ...fields } = body;
  return fields;
}

/**
 * The messages a turn adds to its thread: the request's own messages, then the answer. Their `cache_control` marks
 * are dropped: a replay of every turn's marks would exceed the four breakpoints a request may hold, and the marks of
 * the newest turn, which the client sends each time, are where the cache should end.
 */
export function threadTurnMessages(body: Readonly<Record<string, unknown>>, answer: unknown): unknown[] {
  return [...newMessagesOf(body), answer].map(withoutCacheControl);
}

/** The request's `messages` (none for a `continue` that resumes a paused answer); not an array is a 400. */
function newMessagesOf(body: Readonly<Record<string, unknown>>): unknown[] {
  const messages = body.messages;
  if (messages === undefined) return [];
  if (!Array.isArray(messages))
    throw new GatewayError('invalid_request_error', "Invalid value for 'messages': expected an array.", {
      param: 'messages',
    });
  return messages;
}

/** A copy of a message or block without `cache_control`, in it and in its nested content blocks. */
export function withoutCacheControl(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { cache_control: _cacheControl, ...copy } = value as Record<string, unknown>;
  if (Array.isArray(copy.content)) copy.content = copy.content.map(withoutCacheControl);
  return copy;
}
