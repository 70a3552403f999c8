import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';

/** Anthropic's `tools` and `tool_choice`, or nothing when the request has no tools. */
export interface ConvertedAnthropicTools {
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  tool_choice?:
    | { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean }
    | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };
}

/**
 * Canonical tools as Anthropic custom tools; tool choice auto/none/required/named becomes auto/none/any/tool and
 * `parallelToolCalls: false` becomes `disable_parallel_tool_use` (never on `none`).
 */
export function convertAnthropicTools(request: CanonicalRequest): ConvertedAnthropicTools {
  if (request.tools.length === 0) return {};
  const tools = request.tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: tool.parameters ?? { type: 'object', properties: {} },
  }));
  const choice = request.toolChoice;
  const disableParallel = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice?.type === 'none') return { tools, tool_choice: { type: 'none' } };
  if (choice?.type === 'required') return { tools, tool_choice: { type: 'any', ...disableParallel } };
  if (choice?.type === 'tool') return { tools, tool_choice: { type: 'tool', name: choice.name, ...disableParallel } };
  if (choice?.type === 'auto' || request.parallelToolCalls === false)
    return { tools, tool_choice: { type: 'auto', ...disableParallel } };
  return { tools };
}
