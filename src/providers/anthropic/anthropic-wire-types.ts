// The parts of Anthropic's Messages wire format the adapter writes and reads (field names as on the wire).

/** A request content block. */
export type AnthropicContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicContentBlock[] }
  /** reasoning of an earlier turn, sent back with the signature Anthropic gave it */
  | { type: 'thinking'; thinking: string; signature: string }
  /** reasoning Anthropic returned encrypted only */
  | { type: 'redacted_thinking'; data: string };

/** A request message after role merging. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

/** Anthropic's `usage` (response and stream), every count nullable. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** cache writes by TTL; their sum is cache_creation_input_tokens */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** A response content block, as far as the adapter reads it. */
export interface AnthropicResponseBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  /** `redacted_thinking` blocks' encrypted reasoning */
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** Anthropic's non-streamed `Message`. */
export interface AnthropicResponseMessage {
  id?: string;
  model?: string;
  content?: AnthropicResponseBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsage;
}
