import type { CanonicalFinish, CanonicalStreamFailure } from './canonical-stream-part.js';
import type { CanonicalUsage } from './canonical-usage.js';
import type { VendorArtefact } from './vendor-artefact.js';

/** A text block of the answer. `ended` is false when the stream stopped before the block's end part. */
export interface AnswerTextBlock {
  type: 'text';
  text: string;
  ended: boolean;
}

/** A reasoning block, with the vendor's signature or redacted data when it sent one. */
export interface AnswerReasoningBlock {
  type: 'reasoning';
  text: string;
  artefact?: VendorArtefact;
  ended: boolean;
}

/** A tool call; `arguments` is the concatenated JSON string. */
export interface AnswerToolCallBlock {
  type: 'tool-call';
  callId: string;
  name: string;
  arguments: string;
  artefact?: VendorArtefact;
  ended: boolean;
}

/** One block of an answer. */
export type AnswerBlock = AnswerTextBlock | AnswerReasoningBlock | AnswerToolCallBlock;

/** A whole answer: what a non-streamed reply encodes and what a streamed one's terminal event carries. */
export interface CanonicalAnswer {
  /** in start order (the order of `blockIndex`) */
  blocks: AnswerBlock[];
  /** null when the vendor never said how it ended (a cut stream) */
  finish: CanonicalFinish | null;
  /** the last usage reported, or null */
  usage: CanonicalUsage | null;
  /** set when the vendor failed mid-answer */
  failure: CanonicalStreamFailure | null;
}
