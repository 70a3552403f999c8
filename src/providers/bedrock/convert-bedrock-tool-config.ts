import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import type { BedrockConverseRequestBody, BedrockToolChoice } from './bedrock-converse-types.js';

const emptyObjectSchema = { type: 'object', properties: {} };

/**
 * Converts `tools` and `tool_choice`. Converse has no "none" choice, so `tool_choice: "none"` omits the tools
 * entirely (the model then cannot call any). Converse also demands `toolConfig` whenever the history holds tool
 * blocks; that cannot be combined with "none", so such a request gets a 400 naming `tool_choice`.
 * `strict` and `parallel_tool_calls` have no Converse equivalent and are not sent.
 */
export function convertBedrockToolConfig(request: ChatCompletionRequest, historyUsesTools: boolean): BedrockConverseRequestBody['toolConfig'] {
  const tools = request.tools ?? [];
  if (request.tool_choice === 'none') {
    if (historyUsesTools) {
      throw new GatewayError('invalid_request_error', "Bedrock models cannot honour tool_choice 'none' in a conversation that contains tool calls.", {
        param: 'tool_choice',
      });
    }
    return undefined;
  }
  if (tools.length === 0) {
    if (request.tool_choice !== undefined && request.tool_choice !== 'auto') {
      throw new GatewayError('invalid_request_error', 'tool_choice requires tools.', { param: 'tool_choice' });
    }
    if (historyUsesTools) {
      throw new GatewayError('invalid_request_error', 'Bedrock models require the tools used earlier in the conversation to be declared in `tools`.', { param: 'tools' });
    }
    return undefined;
  }
  const toolChoice = mapToolChoice(request.tool_choice);
  return {
    tools: tools.map((tool) => ({
      toolSpec: {
        name: tool.function.name,
        ...(tool.function.description ? { description: tool.function.description } : {}),
        inputSchema: { json: tool.function.parameters ?? emptyObjectSchema },
      },
    })),
    ...(toolChoice ? { toolChoice } : {}),
  };
}

function mapToolChoice(choice: ChatCompletionRequest['tool_choice']): BedrockToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  if (choice === 'none') return undefined;
  return { tool: { name: choice.function.name } };
}
