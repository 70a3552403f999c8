import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';

/** Anthropic's `tools` and `tool_choice`, or nothing when the request has no tools. */
export interface ConvertedAnthropicTools {
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  tool_choice?: { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean } | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };
}

/**
 * OpenAI function tools as Anthropic custom tools; `tool_choice` auto/none/required/named becomes
 * auto/none/any/tool and `parallel_tool_calls: false` becomes `disable_parallel_tool_use` (never on `none`).
 */
export function convertAnthropicTools(request: ChatCompletionRequest): ConvertedAnthropicTools {
  if (!request.tools || request.tools.length === 0) return {};
  const tools = request.tools.map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
  }));
  const choice = request.tool_choice;
  const disableParallel = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { tools, tool_choice: { type: 'none' } };
  if (choice === 'required') return { tools, tool_choice: { type: 'any', ...disableParallel } };
  if (typeof choice === 'object') return { tools, tool_choice: { type: 'tool', name: choice.function.name, ...disableParallel } };
  if (choice === 'auto' || request.parallel_tool_calls === false) return { tools, tool_choice: { type: 'auto', ...disableParallel } };
  return { tools };
}
