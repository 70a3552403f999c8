import type { CanonicalTool } from '../../core/canonical/canonical-request.js';
import type { ResponsesToolSearchTool } from './responses-wire-types.js';

/** The name translated vendors know a client-run `tool_search` tool by. */
export const toolSearchVendorName = 'tool_search';

/** The parameters when the client gives none: a query, as OpenAI's own tool search takes. */
const defaultParameters = {
  type: 'object',
  properties: { query: { type: 'string', description: 'What the tools to load should do.' } },
  required: ['query'],
};

/**
 * A client-run `tool_search` as a function a translated vendor can call: the client's description and parameters
 * (Codex sends `query` and `limit`); the client runs the search and answers with a `tool_search_output` item whose
 * tools the vendor is given from then on.
 */
export function toolSearchFunction(tool: ResponsesToolSearchTool): CanonicalTool {
  return {
    name: toolSearchVendorName,
    description:
      tool.description ?? 'Searches for tools that are not loaded yet; the tools it finds can be called afterwards.',
    parameters: tool.parameters ?? defaultParameters,
    strict: null,
  };
}

/** The vendor's arguments of a tool search call as the item's `arguments` value (a JSON object; text that is not JSON stays text). */
export function toolSearchArgumentsOf(argumentsJson: string): unknown {
  try {
    return JSON.parse(argumentsJson) as unknown;
  } catch {
    return argumentsJson;
  }
}

/** What the vendor is told a `tool_search_output` loaded: the names it can call now, as it knows them. */
export function toolSearchResultText(vendorNames: readonly string[]): string {
  return vendorNames.length === 0
    ? 'No tools were found.'
    : `Tools loaded, callable from now on: ${vendorNames.join(', ')}.`;
}
