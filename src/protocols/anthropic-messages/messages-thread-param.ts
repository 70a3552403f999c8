import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';

/** A Messages request's `thread` field: start a thread held by the gateway, or continue one from a previous answer. */
export type MessagesThreadParam = { type: 'create' } | { type: 'continue'; previousMessageId: string };

const threadSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('create') }),
  z.strictObject({ type: z.literal('continue'), previous_message_id: z.string().min(1) }),
]);

/**
 * The `thread` of a Messages body (`@anthropic-ai/sdk` 1.15's message threads), or null when absent or null; any
 * other shape is a 400 naming `thread`.
 */
export function readMessagesThreadParam(body: Readonly<Record<string, unknown>>): MessagesThreadParam | null {
  const value = body.thread;
  if (value === undefined || value === null) return null;
  const parsed = threadSchema.safeParse(value);
  if (!parsed.success) {
    throw new GatewayError(
      'invalid_request_error',
      'Invalid value for \'thread\': expected {"type": "create"} or {"type": "continue", "previous_message_id": "msg_..."}.',
      { param: 'thread' },
    );
  }
  return parsed.data.type === 'create'
    ? { type: 'create' }
    : { type: 'continue', previousMessageId: parsed.data.previous_message_id };
}

/** The beta `@anthropic-ai/sdk` names for message threads; the gateway serves threads itself, so no vendor is sent it. */
export const messageThreadsBeta = 'message-threads-2026-08-12';

/** An `anthropic-beta` value (a comma list) without the message threads beta; undefined when nothing else is left. */
export function withoutMessageThreadsBeta(anthropicBeta: string | undefined): string | undefined {
  if (anthropicBeta === undefined) return undefined;
  const kept = anthropicBeta
    .split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '' && beta !== messageThreadsBeta);
  return kept.length > 0 ? kept.join(',') : undefined;
}
