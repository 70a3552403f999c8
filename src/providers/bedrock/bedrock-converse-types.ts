// The Bedrock Converse API's wire shapes, as documented by AWS (only the fields the gateway uses).

/** One content block of a Converse message. */
export type BedrockContentBlock =
  | { text: string }
  /** `bytes` is base64 on the JSON wire */
  | { image: { format: BedrockImageFormat; source: { bytes: string } } }
  /** a tool call the assistant made; `input` is the parsed JSON arguments */
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  /** the answer to a tool call, sent in a user turn */
  | { toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' } }
  /** hidden reasoning the model returned (Claude 3.7+ extended thinking) */
  | { reasoningContent: { reasoningText?: { text: string; signature?: string }; redactedContent?: string } }
  | BedrockCachePoint;

/** A prompt-cache checkpoint: the prompt up to here (tools, system, messages in that order) may be cached. */
export interface BedrockCachePoint {
  cachePoint: { type: 'default' };
}

/** The image formats Converse accepts. */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** One part of a tool result. */
export type BedrockToolResultContent = { text: string } | { json: unknown };

/** One turn of a Converse conversation; roles must alternate, starting with `user`. */
export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

/** A tool the model may call. */
export interface BedrockToolSpecification {
  toolSpec: { name: string; description?: string; inputSchema: { json: unknown } };
}

/** How the model must use the tools. */
export type BedrockToolChoice =
  { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

/** The body of `POST /model/{modelId}/converse` and `/converse-stream`. */
export interface BedrockConverseRequestBody {
  messages: BedrockMessage[];
  system?: Array<{ text: string } | BedrockCachePoint>;
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: Array<BedrockToolSpecification | BedrockCachePoint>; toolChoice?: BedrockToolChoice };
  /** structured output: the answer's text held to a JSON schema (given as a JSON string) */
  outputConfig?: {
    textFormat: {
      type: 'json_schema';
      structure: { jsonSchema: { schema: string; name?: string; description?: string } };
    };
  };
  /** model-specific fields Converse passes to the model as they are (Claude's `thinking`) */
  additionalModelRequestFields?: { thinking?: { type: 'enabled'; budget_tokens: number } };
}

/** Token counts as Bedrock reports them; `inputTokens` excludes cache reads and writes. */
export interface BedrockUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** The body of a successful non-streamed Converse answer. */
export interface BedrockConverseResponseBody {
  output?: { message?: { role?: string; content?: BedrockContentBlock[] } };
  /** end_turn, tool_use, max_tokens, stop_sequence, guardrail_intervened, content_filtered, ... */
  stopReason?: string;
  usage?: BedrockUsage;
  metrics?: { latencyMs?: number };
}
