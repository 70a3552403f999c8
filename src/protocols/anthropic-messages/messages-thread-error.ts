import { GatewayError } from '../../core/gateway-error.js';

/** The `error.details.error_code` values of Anthropic's thread errors that the gateway answers. */
export type MessagesThreadErrorCode = 'thread_not_found' | 'thread_unsupported_request';

/**
 * A thread error as Anthropic answers it: the gateway error plus `error.details.error_code`, which
 * `@anthropic-ai/sdk` reads to recover (replay the whole conversation in a new thread, or go on unthreaded).
 */
export class MessagesThreadError extends GatewayError {
  readonly threadErrorCode: MessagesThreadErrorCode;

  constructor(code: GatewayError['code'], threadErrorCode: MessagesThreadErrorCode, message: string, param: string) {
    super(code, message, { param });
    this.name = 'MessagesThreadError';
    this.threadErrorCode = threadErrorCode;
  }
}

/** 404 `thread_not_found`: no thread of this key ends at `previousMessageId` (never held, expired, or another key's). */
export function threadNotFoundError(previousMessageId: string): MessagesThreadError {
  return new MessagesThreadError(
    'not_found',
    'thread_not_found',
    `No thread of this API key continues from '${previousMessageId}' (it expired or never existed); replay the conversation with thread type 'create'.`,
    'thread.previous_message_id',
  );
}

/** 400 `thread_unsupported_request`: this gateway holds no threads; send the whole conversation without `thread`. */
export function threadsUnsupportedError(): MessagesThreadError {
  return new MessagesThreadError(
    'invalid_request_error',
    'thread_unsupported_request',
    "This gateway does not hold message threads; send the whole conversation without 'thread'.",
    'thread',
  );
}
