import type { CanonicalAnswer } from './canonical-answer.js';
import type { CanonicalStreamFailure, CanonicalStreamPart } from './canonical-stream-part.js';

/**
 * How one client protocol (OpenAI chat, OpenAI Responses, Anthropic Messages) writes a canonical answer. Dispatch
 * uses it for every pair of client and channel protocols that is not a pass-through: the vendor adapter decodes into
 * canonical parts, the codec encodes them in the client's protocol.
 */
export interface ClientAnswerCodec {
  /** the complete JSON body of a non-streamed answer */
  encodeAnswer(answer: CanonicalAnswer): string;
  /** a fresh encoder for one streamed answer */
  createStreamEncoder(): ClientStreamEncoder;
  /**
   * Awaited once the answer is complete, before its last bytes go out (the JSON body, or a stream's closing frames):
   * what the client protocol keeps of the answer (a stored Response) is then in place when the client has it all.
   */
  beforeLastBytes?(): Promise<void>;
  /**
   * The client protocol's own name for a request parameter that a 400 names in OpenAI chat terms (`reasoning_effort`
   * → Responses `reasoning.effort`, Messages `thinking`); dispatch applies it to the 400s vendor adapters throw while
   * encoding. Absent: the chat names are the client's (the chat codec).
   */
  clientParam?(chatParam: string): string;
  /**
   * True when the client's name for a chat parameter means its opposite (chat `parallel_tool_calls` is Messages
   * `tool_choice.disable_parallel_tool_use`): a 400 that advises `true` or `false` for it then advises the other.
   */
  clientParamInverts?(chatParam: string): boolean;
}

/** Writes one streamed answer as complete SSE frames (`event: ...\ndata: ...\n\n`, or `data: ...\n\n`). */
export interface ClientStreamEncoder {
  /** frames sent before the first part (Responses `response.created`, Messages `message_start`); may be empty */
  start(): string[];
  /** the frames one part causes (may be none) */
  push(part: CanonicalStreamPart): string[];
  /** frames that end a finished answer (chat: the usage chunk and `data: [DONE]`; Messages: `message_delta`, `message_stop`) */
  end(): string[];
  /** frames that end an answer cut off after its first frame (chat: an error event and no `[DONE]`; Responses: `response.failed`) */
  fail(failure: CanonicalStreamFailure): string[];
}
