/** The Responses API's output and event shapes the gateway writes (openai-openapi.yaml `Response`, `OutputItem`). */

/** `output_text` content of an assistant message; `annotations` and `logprobs` are required by the schema. */
export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

/** Status of an output item. */
export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** An assistant message item. */
export interface ResponsesMessageItem {
  id: string;
  type: 'message';
  role: 'assistant';
  status: ResponsesItemStatus;
  content: ResponsesOutputText[];
}

/** A function call item: `id` is the gateway's `fc_...`, `call_id` the id the client answers with. */
export interface ResponsesFunctionCallItem {
  id: string;
  type: 'function_call';
  call_id: string;
  /** the `namespace` tool of the called function, when it belongs to one */
  namespace?: string;
  name: string;
  arguments: string;
  status: ResponsesItemStatus;
}

/** A call of a `custom` tool: `input` is the model's free text (a translated vendor's `input` argument). */
export interface ResponsesCustomToolCallItem {
  id: string;
  type: 'custom_tool_call';
  call_id: string;
  name: string;
  input: string;
  status: ResponsesItemStatus;
}

/** A search the client runs (`execution: "client"`): `arguments` as the model gave them (for Codex, `query`, `limit`). */
export interface ResponsesToolSearchCallItem {
  id: string;
  type: 'tool_search_call';
  call_id: string;
  execution: 'client';
  arguments: unknown;
  status: ResponsesItemStatus;
}

/** A reasoning item: the reasoning text as one summary part, the vendor's artefact sealed in `encrypted_content`. */
export interface ResponsesReasoningItem {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
  status?: ResponsesItemStatus;
}

/** One item of `Response.output`. */
export type ResponsesOutputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesCustomToolCallItem
  | ResponsesToolSearchCallItem
  | ResponsesReasoningItem;

/** `ResponseUsage`. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** A flat function tool as the Responses API echoes it. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

/** A `namespace` tool as echoed: its functions as the client named them. */
export interface ResponsesNamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: ResponsesFunctionTool[];
}

/** A `custom` tool as echoed (`format` absent means free text). */
export interface ResponsesCustomTool {
  type: 'custom';
  name: string;
  description: string | null;
  format: { type: 'text' } | { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string } | null;
}

/** A client-run `tool_search` tool as echoed. */
export interface ResponsesToolSearchTool {
  type: 'tool_search';
  execution: 'client';
  description: string | null;
  parameters: Record<string, unknown> | null;
}

/** Any `tools` entry as echoed. */
export type ResponsesEchoedTool =
  ResponsesFunctionTool | ResponsesNamespaceTool | ResponsesCustomTool | ResponsesToolSearchTool;

/** `tool_choice` as echoed. */
export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

/** `text.format` as echoed. */
export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      strict: boolean | null;
      description?: string;
    };

/** The request fields a Response object repeats back, fixed when the request is parsed. */
export interface ResponseEcho {
  model: string;
  instructions: string | null;
  tools: ResponsesEchoedTool[];
  tool_choice: ResponsesToolChoice;
  parallel_tool_calls: boolean;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  text: { format: ResponsesTextFormat };
  reasoning: { effort: string | null; summary: string | null };
  truncation: 'auto' | 'disabled';
  store: boolean;
  previous_response_id: string | null;
}

/** Lifecycle status of a Response. */
export type ResponsesStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** A Response object (`object: "response"`). */
export interface ResponsesResponse extends Omit<ResponseEcho, 'model'> {
  id: string;
  object: 'response';
  /** Unix seconds */
  created_at: number;
  status: ResponsesStatus;
  /** Unix seconds, null until the response ends */
  completed_at: number | null;
  error: { code: 'server_error' | 'rate_limit_exceeded'; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  model: string;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  background: false;
  user: null;
}

/** The event types the gateway emits; every one is in the SDK's event union (no vendor or custom types). */
export type ResponsesStreamEventType =
  | 'response.created'
  | 'response.in_progress'
  | 'response.completed'
  | 'response.incomplete'
  | 'response.failed'
  | 'response.output_item.added'
  | 'response.output_item.done'
  | 'response.content_part.added'
  | 'response.content_part.done'
  | 'response.output_text.delta'
  | 'response.output_text.done'
  | 'response.reasoning_summary_part.added'
  | 'response.reasoning_summary_part.done'
  | 'response.reasoning_summary_text.delta'
  | 'response.reasoning_summary_text.done'
  | 'response.function_call_arguments.delta'
  | 'response.function_call_arguments.done'
  | 'response.custom_tool_call_input.delta'
  | 'response.custom_tool_call_input.done'
  /** a failure mid-answer, as OpenAI sends it just before `response.failed` */
  | 'error';

/** One server-sent event of a streamed response; `type` is also written as the SSE `event:` line. */
export interface ResponsesStreamEvent {
  type: ResponsesStreamEventType;
  sequence_number: number;
  [field: string]: unknown;
}
