import type { TokenUsage } from './token-usage.js';

/** OpenAI's finish reasons, which every vendor's stop reason is mapped to. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * One step of a translated stream, vendor-neutral. Adapters turn a vendor's stream into these parts;
 * one encoder turns them into OpenAI chunks.
 */
export type ChatStreamPart =
  /** the vendor's response id and model, when it sends them first */
  | { type: 'start'; responseId?: string; model?: string }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /** a tool call begins; `toolCallIndex` numbers calls from 0 in order of appearance */
  | { type: 'tool-call-start'; toolCallIndex: number; id: string; name: string }
  /** a piece of the call's JSON arguments string */
  | { type: 'tool-input-delta'; toolCallIndex: number; argumentsDelta: string }
  /** `rawReason` is the vendor's own value, kept for logs */
  | { type: 'finish'; finishReason: FinishReason; rawReason: string | null }
  /** usage so far; a later part replaces an earlier one */
  | { type: 'usage'; usage: TokenUsage }
  /** the vendor failed mid-stream */
  | { type: 'error'; message: string; code: 'server_error' | 'service_unavailable' | 'rate_limit_exceeded' };
