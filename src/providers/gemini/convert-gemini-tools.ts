import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';

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
 * Gemini has no switch against parallel calls: `parallelToolCalls: false` is honoured by dispatch, which keeps only the
 * first call of the answer (keepFirstToolCall).
 */
export function convertGeminiTools(request: CanonicalRequest): ConvertedGeminiTools {
  if (request.tools.length === 0) return {};
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
