import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { createReasoningSealer, type ArtefactCipher } from '../shared/reasoning-sealer.js';
import { parseCountTokensRequest, parseMessagesRequest } from './parse-messages-request.js';

/** A reversible stand-in for the gateway's secret box: only what it "sealed" opens. */
const testCipher: ArtefactCipher = {
  encrypt: (plainText) => `sealed:${Buffer.from(plainText).toString('base64')}`,
  decrypt: (sealed) => {
    if (!sealed.startsWith('sealed:')) throw new Error('not sealed here');
    return Buffer.from(sealed.slice(7), 'base64').toString('utf8');
  },
};
const sealer = createReasoningSealer(testCipher);
const options = { unsealArtefact: sealer.unseal };

const minimal = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

function parseError(body: unknown): GatewayError {
  try {
    parseMessagesRequest(body, options);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('parseMessagesRequest', () => {
  it('maps a minimal request with the defaults', () => {
    expect(parseMessagesRequest(minimal, options)).toEqual({
      request: {
        model: 'claude-test',
        instructions: null,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        tools: [],
        toolChoice: null,
        parallelToolCalls: null,
        outputFormat: { type: 'text' },
        reasoningEffort: null,
        maxOutputTokens: 100,
        sampling: { temperature: null, topP: null },
        metadata: null,
        stream: false,
      },
      ignoredFields: [],
      effortParam: 'thinking',
    });
  });

  it('maps every user block kind, with tool results placed before the rest of the user turn', () => {
    const { request } = parseMessagesRequest(
      {
        ...minimal,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look', cache_control: { type: 'ephemeral' } },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
              {
                type: 'document',
                source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
                title: 'report.pdf',
              },
              { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
              {
                type: 'tool_result',
                tool_use_id: 'toolu_2',
                is_error: true,
                content: [
                  { type: 'text', text: 'no such city' },
                  { type: 'image', source: { type: 'url', url: 'https://example.com/e.png' } },
                ],
              },
              { type: 'tool_result', tool_use_id: 'toolu_3', is_error: true, content: 'timeout' },
            ],
          },
        ],
      },
      options,
    );
    expect(request.messages).toEqual([
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'toolu_1', output: 'sunny' },
          {
            type: 'tool-result',
            callId: 'toolu_2',
            output: [
              { type: 'text', text: 'Error:' },
              { type: 'text', text: 'no such city' },
              { type: 'image', url: 'https://example.com/e.png' },
            ],
          },
          { type: 'tool-result', callId: 'toolu_3', output: 'Error: timeout' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'image', url: 'https://example.com/cat.png' },
          { type: 'file', data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' },
          { type: 'file', url: 'https://example.com/a.pdf' },
          { type: 'text', text: 'plain words' },
        ],
      },
    ]);
  });

  it('maps assistant text and tool_use, keeps thinking whose signature unseals and drops foreign signatures', () => {
    const anthropicArtefact = { producer: 'anthropic', signature: 'vendor-signature' };
    const redactedArtefact = { producer: 'anthropic', redactedData: 'vendor-redacted' };
    const { request } = parseMessagesRequest(
      {
        ...minimal,
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: [
              {
                type: 'thinking',
                thinking: 'I should call the tool',
                signature: sealer.seal({ artefact: anthropicArtefact }),
              },
              { type: 'thinking', thinking: 'forged', signature: 'a-real-anthropic-signature-we-never-sealed' },
              { type: 'redacted_thinking', data: sealer.seal({ artefact: redactedArtefact }) },
              { type: 'redacted_thinking', data: 'foreign-redacted' },
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
        ],
      },
      options,
    );
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'I should call the tool', artefact: anthropicArtefact },
        { type: 'reasoning', text: '', artefact: redactedArtefact },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool-call', callId: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
    });
  });

  it('attaches a thinking block that seals a tool call artefact to the tool_use with that id, never as reasoning; an unsealable one is dropped', () => {
    const geminiArtefact = { producer: 'gemini', signature: 'c2lnLTE=' };
    const { request } = parseMessagesRequest(
      {
        ...minimal,
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: [
              {
                type: 'thinking',
                thinking: '',
                signature: sealer.seal({ artefact: geminiArtefact, callId: 'call_2' }),
              },
              { type: 'tool_use', id: 'call_1', name: 'get_time', input: {} },
              { type: 'thinking', thinking: '', signature: 'not-ours' },
              { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
        ],
      },
      options,
    );
    expect(request.messages[1]).toStrictEqual({
      role: 'assistant',
      content: [
        { type: 'tool-call', callId: 'call_1', name: 'get_time', arguments: '{}' },
        {
          type: 'tool-call',
          callId: 'call_2',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          artefact: geminiArtefact,
        },
      ],
    });
  });

  it('drops every thinking block when no unsealer is given', () => {
    const { request } = parseMessagesRequest({
      ...minimal,
      messages: [
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking: 'x',
              signature: sealer.seal({ artefact: { producer: 'anthropic', signature: 's' } }),
            },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([]);
  });

  it('joins system text blocks, hoists system messages and strips the Claude Code attribution block', () => {
    const { request } = parseMessagesRequest(
      {
        ...minimal,
        system: [
          { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.0; cc_entrypoint=cli; cch=1a2b3;' },
          { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
        ],
        messages: [{ role: 'system', content: 'Answer in French.' }, ...minimal.messages],
      },
      options,
    );
    expect(request.instructions).toBe('You are terse.\n\nAnswer in French.');
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    expect(parseMessagesRequest({ ...minimal, system: 'Be brief.' }, options).request.instructions).toBe('Be brief.');
  });

  it('maps tools, tool_choice, sampling, stop sequences, metadata and stream', () => {
    const { request, ignoredFields } = parseMessagesRequest(
      {
        ...minimal,
        tools: [
          {
            name: 'get_weather',
            description: 'Weather by city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } } },
            cache_control: { type: 'ephemeral' },
          },
        ],
        tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        stop_sequences: ['END'],
        metadata: { user_id: 'user-42' },
        stream: true,
        service_tier: 'auto',
      },
      options,
    );
    expect(request.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather by city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: null,
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(request.parallelToolCalls).toBe(false);
    expect(request.sampling).toEqual({ temperature: 0.5, topP: 0.9, topK: 40, stopSequences: ['END'] });
    expect(request.metadata).toEqual({ user_id: 'user-42' });
    expect(request.stream).toBe(true);
    expect(ignoredFields).toEqual(['service_tier']);
  });

  it.each([
    [{ type: 'auto' }, { type: 'auto' }],
    [{ type: 'any' }, { type: 'required' }],
    [{ type: 'none' }, { type: 'none' }],
  ])('maps tool_choice %j', (choice, expected) => {
    const body = { ...minimal, tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: choice };
    expect(parseMessagesRequest(body, options).request.toolChoice).toEqual(expected);
  });

  it.each([
    [{ type: 'enabled', budget_tokens: 1024 }, 'low'],
    [{ type: 'enabled', budget_tokens: 4096 }, 'medium'],
    [{ type: 'enabled', budget_tokens: 16384 }, 'high'],
    [{ type: 'enabled', budget_tokens: 40000 }, 'xhigh'],
    [{ type: 'disabled' }, 'none'],
    [{ type: 'adaptive' }, 'medium'],
  ])('maps thinking %j to reasoning effort %s', (thinking, effort) => {
    expect(parseMessagesRequest({ ...minimal, max_tokens: 64000, thinking }, options).request.reasoningEffort).toBe(
      effort,
    );
  });

  it.each([
    [{ type: 'adaptive' }, 'high', 'high'],
    [undefined, 'low', 'low'],
    [{ type: 'enabled', budget_tokens: 1024 }, 'max', 'max'],
    [{ type: 'adaptive' }, 'xhigh', 'xhigh'],
    [{ type: 'disabled' }, 'high', 'none'],
  ])('maps thinking %j with output_config.effort %s to reasoning effort %s', (thinking, effort, expected) => {
    const body = { ...minimal, max_tokens: 64000, thinking, output_config: { effort } };
    const parsed = parseMessagesRequest(body, options);
    expect(parsed.request.reasoningEffort).toBe(expected);
    // A refusal names the field the effort came from.
    expect(parsed.effortParam).toBe(thinking?.type === 'disabled' ? 'thinking' : 'output_config.effort');
  });

  it('maps output_config.format to a JSON schema named output, strict only where OpenAI strict mode can take it', () => {
    const closed = {
      type: 'object',
      properties: { echo: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['echo', 'tags'],
      additionalProperties: false,
    };
    const parsed = parseMessagesRequest(
      { ...minimal, output_config: { format: { type: 'json_schema', schema: closed } } },
      options,
    );
    expect(parsed.request.outputFormat).toEqual({ type: 'json-schema', name: 'output', schema: closed, strict: true });
    expect(parsed.ignoredFields).not.toContain('output_config');
    const optional = { ...closed, required: ['echo'] };
    expect(
      parseMessagesRequest(
        { ...minimal, output_config: { format: { type: 'json_schema', schema: optional } } },
        options,
      ).request.outputFormat,
    ).toMatchObject({ type: 'json-schema', strict: null });
    expect(parseMessagesRequest(minimal, options).request.outputFormat).toEqual({ type: 'text' });
  });

  it.each([
    [{ ...minimal, output_config: { format: { type: 'json_object' } } }, 'output_config.format.type'],
    [{ ...minimal, output_config: { effort: 'extreme' } }, 'output_config.effort'],
  ])('refuses an output_config it cannot read: %j', (body, param) => {
    expect(parseError(body).param).toBe(param);
  });

  it.each([
    [
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      'max_tokens',
      /Missing required parameter: 'max_tokens'/,
    ],
    [{ model: 'm', max_tokens: 1, messages: [] }, 'messages', /at least one message/],
    [{ max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }, 'model', /Missing required parameter: 'model'/],
    [{ model: 'm', max_tokens: 0, messages: [{ role: 'user', content: 'x' }] }, 'max_tokens', /Invalid value/],
    [{ ...minimal, temperature: 1.5 }, 'temperature', /Invalid value/],
    [{ ...minimal, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].role', /Invalid value/],
    [
      {
        ...minimal,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/tiff', data: 'x' } }],
          },
        ],
      },
      'messages[0].content[0].source.media_type',
      /Invalid value/,
    ],
    [
      { ...minimal, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }] },
      'messages[0].content[0].type',
      /only appear in assistant/,
    ],
    [
      { ...minimal, messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 't' }] }] },
      'messages[0].content[0].type',
      /only appear in user/,
    ],
    [
      { ...minimal, messages: [{ role: 'user', content: [{ type: 'search_result', source: 's' }] }] },
      'messages[0].content[0].type',
      /not supported/,
    ],
    [{ ...minimal, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type', /server tools/],
    [
      { ...minimal, mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] },
      'mcp_servers',
      /hosted services/,
    ],
    [{ ...minimal, container: 'container_1' }, 'container', /hosted services/],
    [{ ...minimal, tools: [{ name: 'f' }] }, 'tools[0].input_schema', /Missing required parameter/],
    [
      {
        ...minimal,
        tools: [{ name: 'f', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'g' },
      },
      'tool_choice.name',
      /no tool named 'g'/,
    ],
    [{ ...minimal, thinking: { type: 'enabled', budget_tokens: 500 } }, 'thinking.budget_tokens', /at least 1024/],
    [
      { ...minimal, thinking: { type: 'enabled', budget_tokens: 2000 } },
      'thinking.budget_tokens',
      /less than 'max_tokens'/,
    ],
  ])('refuses %j with a 400 naming %s', (body, param, message) => {
    const error = parseError(body);
    expect(error.code).toBe('invalid_request_error');
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it('refuses a body that is not an object', () => {
    expect(parseError([1, 2]).message).toMatch(/JSON object/);
  });
});

describe('parseCountTokensRequest', () => {
  it('needs no max_tokens', () => {
    const request = parseCountTokensRequest({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, options);
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });
});

describe("parseMessagesRequest: Claude Code's tool search, system messages and tool changes", () => {
  const read = { name: 'Read', input_schema: { type: 'object' } };
  const webFetch = {
    name: 'WebFetch',
    description: 'Fetch a URL',
    input_schema: { type: 'object' },
    defer_loading: true,
  };
  const searchTurns = [
    { role: 'user', content: 'q' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'ToolSearch', input: { query: 'select:WebFetch' } }],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: 'WebFetch' }] },
      ],
    },
  ];
  const toolSearch = { name: 'ToolSearch', input_schema: { type: 'object' } };

  it('leaves out a deferred tool until a tool_reference loads it, and refuses a reference to no tool of `tools`', () => {
    const placeholder = { name: 'DeferredToolPlaceholder', input_schema: { type: 'object' }, defer_loading: true };
    const before = parseMessagesRequest({ ...minimal, tools: [read, toolSearch, webFetch, placeholder] }, options);
    expect(before.request.tools.map((tool) => tool.name)).toEqual(['Read', 'ToolSearch']);
    const after = parseMessagesRequest(
      { ...minimal, tools: [read, toolSearch, webFetch, placeholder], messages: searchTurns },
      options,
    );
    expect(after.request.tools.map((tool) => tool.name)).toEqual(['Read', 'ToolSearch', 'WebFetch']);
    expect(parseError({ ...minimal, tools: [read, toolSearch], messages: searchTurns }).param).toBe(
      'messages[2].content[0].content[0].tool_name',
    );
  });

  it('sends a loaded deferred tool as an ordinary tool and the tool_reference result as a text saying so', () => {
    const { request } = parseMessagesRequest(
      { ...minimal, tools: [read, toolSearch, webFetch], messages: searchTurns },
      options,
    );
    expect(request.tools.map((tool) => tool.name)).toEqual(['Read', 'ToolSearch', 'WebFetch']);
    expect(request.messages[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          callId: 'toolu_1',
          output: [{ type: 'text', text: 'Tool WebFetch is loaded; call it like any other tool.' }],
        },
      ],
    });
  });

  it('leaves out a tool a system message withdraws, unless a later one offers it again', () => {
    const change = (type: string, name: string) => ({
      role: 'system',
      content: [{ type, tool: { type: 'tool_reference', name } }],
    });
    const tools = [read, toolSearch];
    const removed = parseMessagesRequest(
      { ...minimal, tools, messages: [...minimal.messages, change('tool_removal', 'Read')] },
      options,
    );
    expect(removed.request.tools.map((tool) => tool.name)).toEqual(['ToolSearch']);
    const readded = parseMessagesRequest(
      {
        ...minimal,
        tools,
        messages: [...minimal.messages, change('tool_removal', 'Read'), change('tool_addition', 'Read')],
      },
      options,
    );
    expect(readded.request.tools.map((tool) => tool.name)).toEqual(['Read', 'ToolSearch']);
    expect(
      parseError({ ...minimal, tools, messages: [...minimal.messages, change('tool_removal', 'Nope')] }).param,
    ).toBe('messages[1].content[0].tool.name');
    const mcp = {
      role: 'system',
      content: [{ type: 'tool_addition', tool: { type: 'mcp_toolset_reference', server_name: 's' } }],
    };
    expect(parseError({ ...minimal, tools, messages: [...minimal.messages, mcp] }).param).toBe(
      'messages[1].content[0].tool.type',
    );
    const inUser = {
      role: 'user',
      content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'Read' } }],
    };
    expect(parseError({ ...minimal, tools, messages: [inUser] }).message).toContain('only appear in system messages');
  });

  it('shows a clear_at next_user_message system text only until a later user message exists', () => {
    const note = { role: 'system', content: 'Only for this turn.', clear_at: 'next_user_message' };
    const current = parseMessagesRequest({ ...minimal, messages: [...minimal.messages, note] }, options);
    expect(current.request.instructions).toBe('Only for this turn.');
    const later = parseMessagesRequest(
      {
        ...minimal,
        messages: [...minimal.messages, note, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }],
      },
      options,
    );
    expect(later.request.instructions).toBeNull();
  });

  it("takes the last system message's output_config.effort over the top-level one", () => {
    const perTurn = { role: 'system', content: 'Think hard now.', output_config: { effort: 'max' } };
    const { request } = parseMessagesRequest(
      {
        ...minimal,
        thinking: { type: 'adaptive' },
        output_config: { effort: 'low' },
        messages: [...minimal.messages, perTurn],
      },
      options,
    );
    expect(request.reasoningEffort).toBe(
      parseMessagesRequest({ ...minimal, thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }, options)
        .request.reasoningEffort,
    );
    expect(request.reasoningEffort).not.toBe(
      parseMessagesRequest({ ...minimal, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, options)
        .request.reasoningEffort,
    );
  });
});
