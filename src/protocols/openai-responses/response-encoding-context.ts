import type { SealedArtefact } from '../shared/reasoning-sealer.js';
import type { ResponseEcho, ResponsesEchoedTool } from './responses-wire-types.js';

/** Prefixes of the item ids the gateway gives output items (never a vendor's id). */
export type OutputItemIdPrefix = 'msg' | 'fc' | 'rs';

/** What encoding a Response needs beside the answer: its ids, times and the request's echo. */
export interface ResponseEncodingContext {
  /** the gateway's `resp_...` id */
  responseId: string;
  /** Unix seconds */
  createdAt: number;
  echo: ResponseEcho;
  /** tools `tool_search_output` items loaded (see ParsedResponsesRequest), whose calls are mapped back like `tools` */
  loadedTools?: ResponsesEchoedTool[];
  /** a new gateway item id with the prefix, e.g. `msg_...`; called once per output item, in output order */
  createItemId(prefix: OutputItemIdPrefix): string;
  /** Unix seconds now, for `completed_at` */
  nowSeconds(): number;
  /**
   * Seals a vendor artefact (with the tool call it belongs to, for a tool call's) into `encrypted_content`; given
   * only when the client asked for `include: ["reasoning.encrypted_content"]` (see createReasoningSealer).
   */
  sealReasoning?: (sealed: SealedArtefact) => string;
  /**
   * Seals what binds a tool call's artefact to its `call_id` when there is no reasoning item to carry it (no
   * `sealReasoning`): the artefact then rides in the call id (see encodeResponsesCallId).
   */
  sealToolCallArtefact?: (sealed: SealedArtefact) => string;
}
