// Codex CLI's requests through /v1/responses on every adapter: its default tool list (a `namespace` group of sub-agent
// functions beside plain functions, and the hosted `web_search`), streamed, `store: false`, the whole history each turn.
import OpenAI from 'openai';
import { expect } from 'vitest';
import { contractModels, type ContractContext, type ContractScenario } from './contract-context.js';

type ResponseStreamEvent = OpenAI.Responses.ResponseStreamEvent;

const objectOf = (properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** Codex 0.171's default tools in the shape it sends them (test data, shortened descriptions). */
const codexFunctionTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'exec_command',
  description: 'Runs a command in a PTY, returning output or a session ID for ongoing interaction.',
  parameters: objectOf({ cmd: { type: 'string' }, workdir: { type: 'string' } }, ['cmd']),
  strict: false,
};
const codexMultiAgentNamespace: OpenAI.Responses.NamespaceTool = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Tools for spawning and coordinating sub-agents.',
  tools: [
    {
      type: 'function',
      name: 'spawn_agent',
      description: 'Spawn a sub-agent for a well-scoped task.',
      parameters: objectOf({ message: { type: 'string' }, agent_type: { type: 'string' } }, ['message']),
      strict: false,
    },
    {
      type: 'function',
      name: 'wait_agent',
      description: 'Wait for agents to reach a final status.',
      parameters: objectOf({ targets: { type: 'array', items: { type: 'string' } }, timeout_ms: { type: 'number' } }),
      strict: false,
    },
    {
      type: 'function',
      name: 'close_agent',
      description: 'Close an agent when it is no longer needed.',
      parameters: objectOf({ target: { type: 'string' } }, ['target']),
      strict: false,
    },
  ],
};
const codexWebSearch = { type: 'web_search', external_web_access: false } as OpenAI.Responses.WebSearchTool;

/** Codex's tools without the hosted one (what it sends with `web_search = "disabled"`). */
const codexTools: OpenAI.Responses.Tool[] = [codexFunctionTool, codexMultiAgentNamespace];
const flatNames = ['multi_agent_v1__spawn_agent', 'multi_agent_v1__wait_agent', 'multi_agent_v1__close_agent'];

/** Codex's fixed request fields. */
const codexFields = {
  model: contractModels.chat,
  store: false,
  include: ['reasoning.encrypted_content' as const],
  reasoning: { summary: 'auto' as const },
  parallel_tool_calls: true,
  prompt_cache_key: 'codex-session-1',
};

/** What the vendor was sent: flat function tools only, or the namespace itself on a Responses API channel. */
function expectVendorTools(context: ContractContext): void {
  const sent = JSON.stringify(context.upstream.requests.at(-1)?.body ?? {});
  if (context.target.settings.responsesApi === 'true') {
    expect(sent).toContain('"type":"namespace"');
    expect(sent).toContain('"name":"multi_agent_v1"');
    return;
  }
  for (const name of flatNames) expect(sent).toContain(`"${name}"`);
  expect(sent).not.toContain('"namespace"');
}

/** An output item as Codex sends it back next turn: a call without its item id, status or the SDK's parsed arguments. */
function asCodexKeepsIt(item: OpenAI.Responses.ResponseOutputItem): OpenAI.Responses.ResponseInputItem {
  if (item.type !== 'function_call') return item as OpenAI.Responses.ResponseInputItem;
  const { call_id, namespace, name, arguments: argumentsText } = item;
  return {
    type: 'function_call',
    call_id,
    ...(namespace === undefined ? {} : { namespace }),
    name,
    arguments: argumentsText,
  };
}

/** One streamed turn as Codex reads it: the final Response and every event. */
async function streamTurn(
  context: ContractContext,
  input: OpenAI.Responses.ResponseInputItem[],
): Promise<{ final: OpenAI.Responses.Response; events: ResponseStreamEvent[] }> {
  const stream = context.client.responses.stream({ ...codexFields, input, tools: codexTools });
  const events: ResponseStreamEvent[] = [];
  stream.on('event', (event) => events.push(event));
  const final = await stream.finalResponse();
  return { final, events };
}

/** Every Codex scenario, appended to the Responses ones. */
export const codexContractScenarios: ContractScenario[] = [
  {
    name: 'Codex default tools: namespace calls come back named by namespace, streamed, and a replayed second turn works',
    async run(context) {
      const input: OpenAI.Responses.ResponseInputItem[] = [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'split this work up' }] },
      ];
      const first = await streamTurn(context, input);
      expectVendorTools(context);
      const calls = first.final.output.filter(
        (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
      );
      const namespaced = calls.filter((call) => call.namespace !== undefined);
      expect(namespaced.length).toBeGreaterThan(0);
      for (const call of namespaced) {
        expect(call.namespace).toBe('multi_agent_v1');
        expect(['spawn_agent', 'wait_agent', 'close_agent']).toContain(call.name);
      }
      for (const call of calls) {
        expect(call.name).not.toContain('__');
        expect(() => JSON.parse(call.arguments) as unknown).not.toThrow();
      }
      // The streamed items say the same as the final Response (Codex acts on output_item.done).
      const doneCalls = first.events.flatMap((event) =>
        event.type === 'response.output_item.done' && event.item.type === 'function_call' ? [event.item] : [],
      );
      expect(doneCalls.map((call) => [call.namespace, call.name])).toEqual(
        calls.map((call) => [call.namespace, call.name]),
      );
      const added = first.events.flatMap((event) =>
        event.type === 'response.output_item.added' && event.item.type === 'function_call' ? [event.item] : [],
      );
      expect(added.map((call) => [call.namespace, call.name])).toEqual(
        calls.map((call) => [call.namespace, call.name]),
      );

      // Turn two: the whole history again, the calls as Codex keeps them (namespace and name) with their outputs.
      const second = await streamTurn(context, [
        ...input,
        ...first.final.output.map(asCodexKeepsIt),
        ...calls.map((call) => ({
          type: 'function_call_output' as const,
          call_id: call.call_id,
          output: `done by ${call.name}`,
        })),
      ]);
      expectVendorTools(context);
      expect(second.final.status).toBe('completed');
      expect(second.final.output_text).toContain(`done by ${namespaced[0]!.name}`);
      expect(second.events.at(-1)?.type).toBe('response.completed');
    },
  },
  {
    name: 'Codex default tools, not streamed: the call names its namespace and the Response echoes the namespace tool',
    async run(context) {
      const response = await context.client.responses.create({
        ...codexFields,
        input: 'spawn a helper',
        tools: codexTools,
        tool_choice: 'auto',
      });
      expectVendorTools(context);
      const calls = response.output.filter(
        (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
      );
      expect(calls.filter((call) => call.namespace === 'multi_agent_v1').map((call) => call.name)).toEqual(
        expect.arrayContaining(['spawn_agent']),
      );
      expect(calls.some((call) => call.name === 'exec_command' && call.namespace === undefined)).toBe(true);
      expect(response.tools).toContainEqual(
        expect.objectContaining({ type: 'namespace', name: 'multi_agent_v1', tools: expect.any(Array) as unknown }),
      );
    },
  },
  {
    name: "Codex's hosted web_search is refused with a 400 naming it and saying how Codex turns it off",
    async run(context) {
      const requestsBefore = context.upstream.requests.length;
      const error = await context.client.responses
        .create({
          ...codexFields,
          stream: true,
          input: 'look something up',
          tools: [...codexTools, codexWebSearch],
        })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(400);
      expect(apiError.code).toBe('invalid_request_error');
      expect(apiError.param).toBe('tools[2].type');
      expect(apiError.message).toContain('web_search = "disabled"');
      expect(context.upstream.requests.length).toBe(requestsBefore);
    },
  },
];
