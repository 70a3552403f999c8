import { GatewayError } from '../../core/gateway-error.js';
import type { CanonicalRequest, CanonicalToolChoice } from '../../core/canonical/canonical-request.js';
import type { BedrockConverseRequestBody, BedrockToolChoice } from './bedrock-converse-types.js';

const emptyObjectSchema = { type: 'object', properties: {} };

/**
 * Converts the tools and tool choice. Converse has no "none" choice, so `tool_choice: "none"` omits the tools
 * entirely (the model then cannot call any). Converse also demands `toolConfig` whenever the history holds tool
 * blocks; that cannot be combined with "none", so such a request gets a 400 naming `tool_choice`.
 * `strict` has no Converse equivalent and is not sent; neither has `parallel_tool_calls: false`, which dispatch honours
 * by keeping only the answer's first call (keepFirstToolCall).
 */
export function convertBedrockToolConfig(
  request: CanonicalRequest,
  historyUsesTools: boolean,
): BedrockConverseRequestBody['toolConfig'] {
  const tools = request.tools;
  if (request.toolChoice?.type === 'none') {
    if (historyUsesTools) {
      throw new GatewayError(
        'invalid_request_error',
        "Bedrock models cannot honour tool_choice 'none' in a conversation that contains tool calls.",
        {
          param: 'tool_choice',
        },
      );
    }
    return undefined;
  }
  if (tools.length === 0) {
    if (request.toolChoice !== null && request.toolChoice.type !== 'auto') {
      throw new GatewayError('invalid_request_error', 'tool_choice requires tools.', { param: 'tool_choice' });
    }
    if (historyUsesTools) {
      throw new GatewayError(
        'invalid_request_error',
        'Bedrock models require the tools used earlier in the conversation to be declared in `tools`.',
        { param: 'tools' },
      );
    }
    return undefined;
  }
  const toolChoice = mapToolChoice(request.toolChoice);
  return {
    tools: tools.map((tool) => ({
      toolSpec: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: { json: tool.parameters ?? emptyObjectSchema },
      },
    })),
    ...(toolChoice ? { toolChoice } : {}),
  };
}

function mapToolChoice(choice: CanonicalToolChoice | null): BedrockToolChoice | undefined {
  if (choice === null || choice.type === 'none') return undefined;
  if (choice.type === 'auto') return { auto: {} };
  if (choice.type === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}
