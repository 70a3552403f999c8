/** Why a Message ended, in Anthropic's terms. */
export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** Token counts of a Message; `input_tokens` excludes the cached parts, unlike the canonical total. */
export interface MessagesUsage {
  /** input tokens neither read from nor written to the prompt cache */
  input_tokens: number;
  cache_creation_input_tokens: number;
  /** cache writes by TTL (their sum is cache_creation_input_tokens); present when the vendor wrote some at 1 hour */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  cache_read_input_tokens: number;
  /** all output tokens, thinking included */
  output_tokens: number;
}

/** One content block of an answer. */
export type MessagesAnswerBlock =
  | { type: 'text'; text: string }
  /** `signature` is the gateway-sealed vendor artefact, or empty when the vendor gave none */
  | { type: 'thinking'; thinking: string; signature: string }
  /** `data` is the gateway-sealed vendor artefact */
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** A Message object, as `POST /v1/messages` answers it. */
export interface MessagesAnswer {
  id: string;
  type: 'message';
  role: 'assistant';
  /** the public model id the client asked for */
  model: string;
  content: MessagesAnswerBlock[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}

/** Anthropic's error `type` values the gateway uses. */
export type MessagesErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

/** Anthropic's error body. */
export interface MessagesErrorBody {
  type: 'error';
  /** `details.error_code` names a thread error (`thread_not_found`, `thread_unsupported_request`) */
  error: { type: MessagesErrorType; message: string; details?: { error_code: string } };
  /** the gateway's request id */
  request_id?: string;
}
