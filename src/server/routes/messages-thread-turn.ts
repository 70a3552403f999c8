import type { FastifyBaseLogger } from 'fastify';
import type { ClientAnswerCodec } from '../../core/canonical/client-answer-codec.js';
import type { PassThroughProtocol } from '../../dispatch/pass-through/pass-through-protocol.js';
import {
  createMessagesStreamAccumulator,
  readMessagesAnswer,
  readMessagesFrames,
  type MessagesThreadAnswer,
} from '../../protocols/anthropic-messages/messages-stream-accumulator.js';
import {
  threadNotFoundError,
  threadsUnsupportedError,
} from '../../protocols/anthropic-messages/messages-thread-error.js';
import {
  continuedMessagesBody,
  threadTurnMessages,
  withoutThreadField,
} from '../../protocols/anthropic-messages/messages-thread-history.js';
import { readMessagesThreadParam } from '../../protocols/anthropic-messages/messages-thread-param.js';
import type { KeyPrincipal } from '../../routing/routing-table.js';
import type { MessageThreadStore, MessageThreadTurnRecord } from '../../storage/message-thread-store.js';
import type { GatewayServices } from '../gateway-services.js';

/** One `/v1/messages` request that is a turn of a thread the gateway holds. */
export interface MessagesThreadTurn {
  /** the whole conversation to serve: the thread's history and creation fields, then the turn's messages; no `thread` */
  body: Record<string, unknown>;
  /** the codec, holding the answer in the thread before its last bytes go out */
  holdingCodec(codec: ClientAnswerCodec): ClientAnswerCodec;
  /** the pass-through, holding the Anthropic channel's answer in the thread before its last bytes go out */
  holdingPassThrough(passThrough: PassThroughProtocol): PassThroughProtocol;
}

/** What opening a thread turn needs. */
export interface OpenMessagesThreadTurnOptions {
  /** the client's body */
  body: Record<string, unknown>;
  services: Pick<GatewayServices, 'messageThreads' | 'clock'>;
  principal: KeyPrincipal;
  /** the gateway's `msg_...` id of this turn's answer, which the next turn continues from */
  messageId: string;
  log: FastifyBaseLogger;
}

/** How often one process removes expired threads, at most (on a thread's first turn). */
const purgeIntervalMs = 60_000;
const lastPurgeAt = new WeakMap<MessageThreadStore, number>();

/**
 * Reads the body's `thread` (`@anthropic-ai/sdk` message threads). Null without one. A `create` is served as the
 * body without `thread`; a `continue` as the whole conversation of the key's thread ending at `previous_message_id`
 * (404 `thread_not_found` when there is none: unknown, expired or another key's, so the SDK replays it all in a new
 * thread). Either way the answer is held as the thread's next turn before the client has all of it. Without a thread
 * store (threads turned off) a `thread` is answered 400 `thread_unsupported_request`, and the SDK goes on unthreaded.
 */
export async function openMessagesThreadTurn(
  options: OpenMessagesThreadTurnOptions,
): Promise<MessagesThreadTurn | null> {
  const thread = readMessagesThreadParam(options.body);
  if (thread === null) return null;
  const threads = options.services.messageThreads;
  if (!threads) throw threadsUnsupportedError();
  const { principal, messageId, log } = options;
  const now = options.services.clock();
  let body: Record<string, unknown>;
  let first: MessageThreadTurnRecord | undefined;
  if (thread.type === 'continue') {
    const loaded = await threads.store.loadThread(thread.previousMessageId, principal.apiKeyId, now);
    first = loaded?.turns[0];
    if (!loaded || !first) throw threadNotFoundError(thread.previousMessageId);
    body = continuedMessagesBody(options.body, {
      system: first.system ?? undefined,
      tools: first.tools ?? undefined,
      messages: loaded.turns.flatMap((turn) => turn.messages),
    });
  } else {
    body = withoutThreadField(options.body);
    purgeExpiredThreads(threads.store, now, log);
  }
  const previousMessageId = thread.type === 'continue' ? thread.previousMessageId : null;
  const hold = async (answer: MessagesThreadAnswer): Promise<void> => {
    try {
      const savedAt = options.services.clock();
      await threads.store.saveTurn({
        id: messageId,
        threadId: first?.threadId ?? messageId,
        previousMessageId,
        userId: principal.userId,
        apiKeyId: principal.apiKeyId,
        system: first ? null : (options.body.system ?? null),
        tools: first ? null : (options.body.tools ?? null),
        messages: threadTurnMessages(options.body, answer),
        createdAt: savedAt,
        expiresAt: savedAt + threads.retentionMs,
      });
    } catch (error) {
      // The vendor did the work and the answer is billed and delivered all the same; the next turn finds no thread and
      // the SDK replays the conversation in a new one.
      log.error({ err: error }, 'holding a message thread turn failed');
    }
  };
  return {
    body,
    holdingCodec: (codec) => holdingCodec(codec, hold),
    holdingPassThrough: (passThrough) => holdingPassThrough(passThrough, hold),
  };
}

function purgeExpiredThreads(store: MessageThreadStore, now: number, log: FastifyBaseLogger): void {
  if (now - (lastPurgeAt.get(store) ?? 0) < purgeIntervalMs) return;
  lastPurgeAt.set(store, now);
  void store.deleteExpired(now).catch((error: unknown) => log.error({ err: error }, 'removing expired threads failed'));
}

/** The codec with the answer (JSON, or a stream that ended well) held before its last bytes go out. */
function holdingCodec(
  codec: ClientAnswerCodec,
  hold: (answer: MessagesThreadAnswer) => Promise<void>,
): ClientAnswerCodec {
  let held: Promise<void> | undefined;
  const clientParam = codec.clientParam?.bind(codec);
  return {
    encodeAnswer(answer) {
      const text = codec.encodeAnswer(answer);
      const message = readMessagesAnswer(text);
      if (message) held = hold(message);
      return text;
    },
    async beforeLastBytes() {
      await codec.beforeLastBytes?.();
      await held;
    },
    createStreamEncoder() {
      const encoder = codec.createStreamEncoder();
      const accumulator = createMessagesStreamAccumulator();
      const seen = (frames: string[]): string[] => {
        for (const event of readMessagesFrames(frames)) accumulator.push(event);
        return frames;
      };
      return {
        start: () => seen(encoder.start()),
        push: (part) => seen(encoder.push(part)),
        end() {
          const frames = seen(encoder.end());
          const message = accumulator.message();
          if (message) held = hold(message);
          return frames;
        },
        fail: (failure) => encoder.fail(failure),
      };
    },
    ...(clientParam ? { clientParam } : {}),
  };
}

/** The pass-through with the Anthropic channel's answer (JSON, or a stream up to `message_stop`) held before it ends. */
function holdingPassThrough(
  passThrough: PassThroughProtocol,
  hold: (answer: MessagesThreadAnswer) => Promise<void>,
): PassThroughProtocol {
  return {
    servesChannel: (channel) => passThrough.servesChannel(channel),
    encode: (channel, upstreamModelId) => passThrough.encode(channel, upstreamModelId),
    mapFailure: (status, bodyText, retryAfter, channel) =>
      passThrough.mapFailure(status, bodyText, retryAfter, channel),
    async rewriteAnswer(bodyText, channel) {
      const answer = await passThrough.rewriteAnswer(bodyText, channel);
      const message = readMessagesAnswer(answer.body);
      if (message) await hold(message);
      return answer;
    },
    createStreamRelay(channel) {
      const relay = passThrough.createStreamRelay(channel);
      const accumulator = createMessagesStreamAccumulator();
      return {
        async relayEvent(event) {
          const step = await relay.relayEvent(event);
          for (const data of readMessagesFrames(step.frames)) accumulator.push(data);
          const message = step.terminal && !step.failure ? accumulator.message() : undefined;
          if (message) await hold(message);
          return step;
        },
        cutOff: (failure) => relay.cutOff(failure),
      };
    },
  };
}
