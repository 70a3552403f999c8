import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';

/** Gemini's `tools` and `toolConfig`, or nothing when the request has no tools. */
export interface ConvertedGeminiTools {
  tools?: Array<{
    functionDeclarations: Array<{ name: string; description?: string; parametersJsonSchema?: Record<string, unknown> }>;
  }>;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
}

/**
 * Canonical tools as one Gemini `functionDeclarations` tool (parameters as plain JSON Schema in
 * `parametersJsonSchema`); tool choice auto/none/required/named → AUTO/NONE/ANY/ANY + allowedFunctionNames.
 * Gemini cannot forbid parallel calls, so `parallelToolCalls: false` is refused with a 400.
 */
export function convertGeminiTools(request: CanonicalRequest): ConvertedGeminiTools {
  if (request.tools.length === 0) return {};
  if (request.parallelToolCalls === false) {
    throw new GatewayError(
      'invalid_request_error',
      'This model cannot be limited to one tool call per turn; omit `parallel_tool_calls` or set it to true.',
      { param: 'parallel_tool_calls' },
    );
  }
  const functionDeclarations = request.tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    ...(tool.parameters ? { parametersJsonSchema: tool.parameters } : {}),
  }));
  const choice = request.toolChoice;
  const tools = [{ functionDeclarations }];
  if (choice === null) return { tools };
  if (choice.type === 'auto') return { tools, toolConfig: { functionCallingConfig: { mode: 'AUTO' } } };
  if (choice.type === 'none') return { tools, toolConfig: { functionCallingConfig: { mode: 'NONE' } } };
  if (choice.type === 'required') return { tools, toolConfig: { functionCallingConfig: { mode: 'ANY' } } };
  return { tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } } };
}
