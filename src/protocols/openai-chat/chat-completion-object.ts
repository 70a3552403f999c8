/** OpenAI's finish reasons, which every canonical finish is written as. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** OpenAI's chat `usage` object. */
export interface ChatUsageObject {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

/** OpenAI's `chat.completion` object, as a translated answer is written. */
export interface ChatCompletionObject {
  id: string;
  object: 'chat.completion';
  /** Unix seconds */
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal: null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    };
    logprobs: null;
    finish_reason: ChatFinishReason;
  }>;
  usage: ChatUsageObject;
}
