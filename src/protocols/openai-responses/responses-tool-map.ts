import { flattenNamespaceTools, type ClientFunctionName, type NamedTool } from './flatten-namespace-tools.js';
import type { ResponseEncodingContext } from './response-encoding-context.js';
import type { ResponsesEchoedTool } from './responses-wire-types.js';
import { toolSearchVendorName } from './tool-search-function.js';

/** What a vendor's tool call is in the client's terms, which decides the output item it becomes. */
export type ClientToolCall =
  { type: 'function'; name: string; namespace?: string } | { type: 'custom'; name: string } | { type: 'tool_search' };

/** The client's tools (function, namespace, custom, tool_search) as vendors name them, and back. */
export interface ResponsesToolMap {
  /** the vendor's name for a client function (a plain or custom tool's name stays as it is) */
  vendorNameOf(function_: ClientFunctionName): string;
  /** which client tool a vendor's function name stands for; a name the map does not know is a plain function */
  clientCallOf(vendorName: string): ClientToolCall;
}

/**
 * Maps the tools a request offers (and those a `tool_search_output` loaded): namespace functions get flat names
 * (see flattenNamespaceTools), a custom tool keeps its name, a client-run tool search is `tool_search`.
 */
export function createResponsesToolMap(tools: readonly ResponsesEchoedTool[]): ResponsesToolMap {
  const named: NamedTool[] = tools.map((tool) => {
    switch (tool.type) {
      case 'function':
      case 'namespace':
        return tool;
      case 'custom':
        return { type: 'function', name: tool.name };
      case 'tool_search':
        return { type: 'function', name: toolSearchVendorName };
      default: {
        const unreachable: never = tool;
        throw new Error(`Unhandled tool ${JSON.stringify(unreachable)}`);
      }
    }
  });
  const flat = flattenNamespaceTools(named);
  const customNames = new Set(tools.flatMap((tool) => (tool.type === 'custom' ? [tool.name] : [])));
  const hasToolSearch = tools.some((tool) => tool.type === 'tool_search');
  return {
    vendorNameOf: (function_) => flat.vendorNameOf(function_),
    clientCallOf(vendorName) {
      if (customNames.has(vendorName)) return { type: 'custom', name: vendorName };
      if (hasToolSearch && vendorName === toolSearchVendorName) return { type: 'tool_search' };
      return { type: 'function', ...flat.clientNameOf(vendorName) };
    },
  };
}

/** The tool map of a response: the request's tools and those its tool searches loaded. */
export function toolMapOf(context: Pick<ResponseEncodingContext, 'echo' | 'loadedTools'>): ResponsesToolMap {
  return createResponsesToolMap([...context.echo.tools, ...(context.loadedTools ?? [])]);
}
