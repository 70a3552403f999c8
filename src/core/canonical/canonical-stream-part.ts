import type { CanonicalUsage } from './canonical-usage.js';
import type { VendorArtefact } from './vendor-artefact.js';

/** Why the model stopped, unified across vendors (the vendor's own value travels beside it as `rawReason`). */
export type CanonicalFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter';

/** How an answer ended. */
export interface CanonicalFinish {
  reason: CanonicalFinishReason;
  /** the vendor's own value (`end_turn`, `MAX_TOKENS`, ...), kept for logs; null when it sent none */
  rawReason: string | null;
  /** the stop sequence that matched, when the vendor says (Anthropic `stop_sequence`) */
  stopSequence?: string;
}

/** A failure the vendor reported after the answer had begun. */
export interface CanonicalStreamFailure {
  code: 'server_error' | 'service_unavailable' | 'rate_limit_exceeded';
  message: string;
}

/**
 * One step of an answer, vendor-neutral. Every block (text, reasoning, tool call) has a start, deltas and an
 * end, tied together by `blockIndex`: numbered from 0 in start order, never reused; blocks may interleave
 * (parallel tool calls). A non-streamed answer is the same parts, folded (see foldStreamParts).
 */
export type CanonicalStreamPart =
  /** the vendor's response id and model when it sends them first: logged, never shown to a client */
  | { type: 'response-start'; vendorResponseId?: string; vendorModel?: string }
  | { type: 'text-start'; blockIndex: number }
  | { type: 'text-delta'; blockIndex: number; text: string }
  | { type: 'text-end'; blockIndex: number }
  | { type: 'reasoning-start'; blockIndex: number }
  | { type: 'reasoning-delta'; blockIndex: number; text: string }
  /** the vendor's signature or redacted data usually arrives last, so it rides on the end */
  | { type: 'reasoning-end'; blockIndex: number; artefact?: VendorArtefact }
  /** `callId` is the vendor's call id, which the client echoes back with the result */
  | { type: 'tool-call-start'; blockIndex: number; callId: string; name: string }
  /** a piece of the call's JSON arguments string */
  | { type: 'tool-call-delta'; blockIndex: number; argumentsDelta: string }
  | { type: 'tool-call-end'; blockIndex: number; artefact?: VendorArtefact }
  | { type: 'finish'; finish: CanonicalFinish }
  /** usage so far; a later part replaces an earlier one */
  | { type: 'usage'; usage: CanonicalUsage }
  /** the vendor failed mid-answer; nothing after it counts */
  | { type: 'error'; failure: CanonicalStreamFailure };
