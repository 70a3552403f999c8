/** One answered turn of a message thread the gateway holds. */
export interface MessageThreadTurnRecord {
  /** the answer's `msg_...` id, which the next turn names as `previous_message_id` */
  id: string;
  /** the id of the thread's first turn */
  threadId: string;
  /** the turn this one continued; null for the first */
  previousMessageId: string | null;
  userId: string;
  /** the key that owns the thread: only it may continue it */
  apiKeyId: string;
  /** the creating request's `system` (first turn only; null without one) */
  system: unknown;
  /** the creating request's `tools` (first turn only; null without them) */
  tools: unknown;
  /** what the turn added to the conversation: its request messages, then the answer */
  messages: unknown[];
  /** Unix milliseconds */
  createdAt: number;
  /** Unix milliseconds after which the whole thread is gone */
  expiresAt: number;
}

/** A thread as a `continue` replays it: its first turn and every turn up to the one continued, oldest first. */
export interface LoadedMessageThread {
  turns: MessageThreadTurnRecord[];
}

/** Message threads, each owned by one API key; another key's thread, or an expired one, is simply not found. */
export interface MessageThreadStore {
  /** keeps a turn and moves the expiry of its whole thread to the turn's */
  saveTurn(turn: MessageThreadTurnRecord): Promise<void>;
  /** the turns from the thread's first to `messageId`, if that turn is the key's and its thread has not expired */
  loadThread(messageId: string, apiKeyId: string, now: number): Promise<LoadedMessageThread | undefined>;
  /** removes every turn of threads expired by `now`; returns how many turns went */
  deleteExpired(now: number): Promise<number>;
}
