// The `Response` object OpenAI returns, sends in stream events and stores, with every field it always carries.
import type { ResponseItem } from './openai-simulator-responses-items.js';
import type { ResponsesUsage } from './openai-simulator-responses-reply.js';
import type { ResponsesRequest, ResponsesToolChoice } from './openai-simulator-responses-request.js';
import { nowInSeconds } from './openai-simulator-text.js';

/** Where a response is in its life. */
export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** A Responses API `Response`. */
export interface ResponseObject {
  id: string;
  object: 'response';
  /** Unix seconds */
  created_at: number;
  status: ResponseStatus;
  background: false;
  /** Unix seconds, null until finished */
  completed_at: number | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: ResponseItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: string | null;
  reasoning: { effort: string | null; summary: string | null };
  safety_identifier: string | null;
  service_tier: string;
  store: boolean;
  temperature: number;
  text: ResponsesRequest['text'];
  tool_choice: ResponsesToolChoice;
  tools: ResponsesRequest['echoedTools'];
  top_logprobs: number;
  top_p: number;
  truncation: 'auto' | 'disabled';
  /** null while in progress */
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}

/** The response as `response.created` shows it: in progress, no output, no usage. */
export function inProgressResponse(id: string, request: ResponsesRequest): ResponseObject {
  const raw = request.raw;
  return {
    id,
    object: 'response',
    created_at: nowInSeconds(),
    status: 'in_progress',
    background: false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: request.instructions,
    max_output_tokens: request.maxOutputTokens,
    max_tool_calls: typeof raw.max_tool_calls === 'number' ? raw.max_tool_calls : null,
    model: request.model,
    output: [],
    parallel_tool_calls: request.parallelToolCalls,
    previous_response_id: request.previousResponseId,
    prompt_cache_key: typeof raw.prompt_cache_key === 'string' ? raw.prompt_cache_key : null,
    reasoning: { effort: request.reasoningEffort, summary: request.reasoningSummary },
    safety_identifier: typeof raw.safety_identifier === 'string' ? raw.safety_identifier : null,
    service_tier: 'default',
    store: request.store,
    temperature: request.temperature,
    text: request.text,
    tool_choice: request.toolChoice,
    tools: request.echoedTools,
    top_logprobs: typeof raw.top_logprobs === 'number' ? raw.top_logprobs : 0,
    top_p: request.topP,
    truncation: request.truncation,
    usage: null,
    user: typeof raw.user === 'string' ? raw.user : null,
    metadata: request.metadata,
  };
}

/** The finished response: completed, or incomplete because max_output_tokens cut it. */
export function finishedResponse(
  start: ResponseObject,
  output: ResponseItem[],
  status: 'completed' | 'incomplete',
  usage: ResponsesUsage | null,
): ResponseObject {
  return {
    ...start,
    status,
    completed_at: nowInSeconds(),
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    output,
    usage,
  };
}

/** The response as `response.failed` shows it after a mid-stream server error. */
export function failedResponse(start: ResponseObject): ResponseObject {
  return {
    ...start,
    status: 'failed',
    error: { code: 'server_error', message: 'The server had an error while processing your request.' },
  };
}
