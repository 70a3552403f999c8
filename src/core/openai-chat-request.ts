/** A text part of a message. */
export interface ChatTextPart {
  type: 'text';
  text: string;
}

/** An image part; `url` is an http(s) URL or a `data:` URL. */
export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/** Any other part type the vendor may understand (audio, file); adapters that cannot map it refuse it with a 400. */
export interface ChatOtherPart {
  type: 'input_audio' | 'file' | 'refusal';
  [field: string]: unknown;
}

/** A tool call the assistant made. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  /** `arguments` is a JSON string, as on OpenAI's wire */
  function: { name: string; arguments: string };
}

/** One message of the conversation, in OpenAI's shape (the gateway's canonical request, see docs/adr/0001). */
export type ChatMessage =
  | { role: 'system' | 'developer'; content: string | ChatTextPart[]; name?: string }
  | { role: 'user'; content: string | Array<ChatTextPart | ChatImagePart | ChatOtherPart>; name?: string }
  | {
      role: 'assistant';
      content?: string | Array<ChatTextPart | ChatOtherPart> | null;
      tool_calls?: ChatToolCall[];
      name?: string;
    }
  | { role: 'tool'; content: string | ChatTextPart[]; tool_call_id: string }
  | { role: 'function'; content: string | null; name: string };

/** A function the model may call. */
export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

/** A validated chat completion request: OpenAI's fields, unknown ones kept for OpenAI-protocol vendors. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number | null;
  top_p?: number | null;
  n?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  tools?: ChatFunctionTool[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  response_format?:
    | { type: 'text' }
    | { type: 'json_object' }
    | {
        type: 'json_schema';
        json_schema: { name: string; schema?: unknown; strict?: boolean | null; [field: string]: unknown };
      };
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  seed?: number | null;
  user?: string;
  [field: string]: unknown;
}
