import type { CanonicalTool } from '../../core/canonical/canonical-request.js';
import type { ResponsesCustomTool } from './responses-wire-types.js';

/** The one string parameter that carries a custom tool's free-text input to a translated vendor. */
const inputParameter = 'input';

/**
 * A `custom` tool as a function a translated vendor can call: one required string parameter `input` carrying the
 * free text. A grammar or regex format goes into the description for the model to follow; the vendor does not
 * enforce it (only OpenAI's own servers constrain sampling to it).
 */
export function customToolFunction(tool: ResponsesCustomTool, vendorName: string): CanonicalTool {
  const format = tool.format?.type === 'grammar' ? tool.format : null;
  const formatNote = format
    ? `The input must match this ${format.syntax === 'lark' ? 'Lark grammar' : 'regular expression'}:\n${format.definition}`
    : 'The input is free text.';
  const description = [
    tool.description,
    `Put the tool's whole input in the \`${inputParameter}\` string, not JSON-encoded. ${formatNote}`,
  ]
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .join('\n\n');
  return {
    name: vendorName,
    description,
    parameters: {
      type: 'object',
      properties: { [inputParameter]: { type: 'string', description: 'The free-text input of the tool.' } },
      required: [inputParameter],
      additionalProperties: false,
    },
    strict: null,
  };
}

/** The vendor's arguments of a custom tool call as the call's free-text input (arguments that are no such object stay as they are). */
export function customToolInputOf(argumentsJson: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const input = (parsed as Record<string, unknown>)[inputParameter];
      if (typeof input === 'string') return input;
    }
  } catch {
    // Not JSON: the vendor wrote the input itself.
  }
  return argumentsJson;
}

/** A custom tool call's free-text input as the arguments of the vendor's function call. */
export function customToolArgumentsOf(input: string): string {
  return JSON.stringify({ [inputParameter]: input });
}
