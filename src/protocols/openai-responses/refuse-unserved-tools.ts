import { GatewayError } from '../../core/gateway-error.js';

/** The tool types whose work OpenAI's servers do (`web_search` searches, `file_search` reads vector stores, ...). */
const hostedToolTypes = new Set([
  'web_search',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'web_search_2025_08_26',
  'file_search',
  'computer',
  'computer_use',
  'computer_use_preview',
  'code_interpreter',
  'image_generation',
  'mcp',
]);

/**
 * Refuses every `tools` entry but function tools, `namespace` groups of function tools, `custom` tools and a
 * client-run `tool_search` (`execution: "client"`), with a 400 naming the entry. A hosted tool (`web_search` and the like) is refused, never dropped: no translated vendor runs OpenAI's
 * tools, and Codex's default `web_search` (`external_web_access: false`, its "cached" mode) still searches OpenAI's
 * index, so leaving it out would change what the model can do without saying so. The message says how Codex turns
 * it off, since Codex shows a 400's message when it ends the turn.
 */
export function refuseUnservedTools(tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool: unknown, index) => {
    const type = typeOf(tool);
    if (type === 'function' || type === 'custom') return;
    if (type === 'tool_search') {
      if ((tool as { execution?: unknown }).execution === 'client') return;
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for 'tools[${index}].execution': only a client-run tool search ('execution': 'client') is supported by this gateway; OpenAI's servers run the other.`,
        { param: `tools[${index}].execution` },
      );
    }
    if (type === 'namespace') {
      const members = (tool as { tools?: unknown }).tools;
      if (!Array.isArray(members)) return;
      members.forEach((member: unknown, memberIndex) => {
        const memberType = typeOf(member);
        if (memberType !== 'function')
          throw new GatewayError(
            'invalid_request_error',
            `Invalid value for 'tools[${index}].tools[${memberIndex}].type': only 'function' tools are supported inside a namespace by this gateway.`,
            { param: `tools[${index}].tools[${memberIndex}].type` },
          );
      });
      return;
    }
    const param = `tools[${index}].type`;
    if (typeof type === 'string' && hostedToolTypes.has(type)) {
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${param}': the hosted tool '${type}' is not supported by this gateway (it serves function, namespace, custom and client-run tool_search tools only).` +
          (type === 'web_search' ? ' In Codex, set web_search = "disabled" in config.toml.' : ''),
        { param },
      );
    }
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${param}': only 'function', 'namespace', 'custom' and client-run 'tool_search' tools are supported by this gateway.`,
      { param },
    );
  });
}

function typeOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
}
