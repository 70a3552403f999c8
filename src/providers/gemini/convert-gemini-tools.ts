import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';

/** Gemini's `tools` and `toolConfig`, or nothing when the request has no tools. */
export interface ConvertedGeminiTools {
  tools?: Array<{ functionDeclarations: Array<{ name: string; description?: string; parametersJsonSchema?: Record<string, unknown> }> }>;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
}

/**
 * OpenAI function tools as one Gemini `functionDeclarations` tool (parameters as plain JSON Schema in
 * `parametersJsonSchema`); tool_choice auto/none/required/named → AUTO/NONE/ANY/ANY + allowedFunctionNames.
 * Gemini cannot forbid parallel calls, so `parallel_tool_calls: false` is refused with a 400.
 */
export function convertGeminiTools(request: ChatCompletionRequest): ConvertedGeminiTools {
  if (!request.tools || request.tools.length === 0) return {};
  if (request.parallel_tool_calls === false) {
    throw new GatewayError('invalid_request_error', 'This model cannot be limited to one tool call per turn; omit `parallel_tool_calls` or set it to true.', { param: 'parallel_tool_calls' });
  }
  const functionDeclarations = request.tools.map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    ...(tool.function.parameters ? { parametersJsonSchema: tool.function.parameters } : {}),
  }));
  const choice = request.tool_choice;
  const tools = [{ functionDeclarations }];
  if (choice === undefined) return { tools };
  if (choice === 'auto') return { tools, toolConfig: { functionCallingConfig: { mode: 'AUTO' } } };
  if (choice === 'none') return { tools, toolConfig: { functionCallingConfig: { mode: 'NONE' } } };
  if (choice === 'required') return { tools, toolConfig: { functionCallingConfig: { mode: 'ANY' } } };
  return { tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } } };
}
