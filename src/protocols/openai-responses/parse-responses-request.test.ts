import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { GatewayError } from '../../core/gateway-error.js';
import { encodeResponse } from './encode-response.js';
import { createReasoningSealer } from '../shared/reasoning-sealer.js';
import { parseResponsesRequest } from './parse-responses-request.js';

/** The GatewayError a body is refused with. */
function refusal(body: unknown): GatewayError {
  try {
    parseResponsesRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('parseResponsesRequest', () => {
  it('takes a string input as one user message and fills defaults', () => {
    const parsed = parseResponsesRequest({ model: 'gpt-x', input: 'Hi' });
    expect(parsed.request).toEqual({
      model: 'gpt-x',
      instructions: null,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [],
      toolChoice: null,
      parallelToolCalls: null,
      outputFormat: { type: 'text' },
      reasoningEffort: null,
      maxOutputTokens: null,
      sampling: { temperature: null, topP: null },
      metadata: null,
      stream: false,
    });
    expect(parsed).toMatchObject({
      store: true,
      include: [],
      previousResponseId: null,
      truncation: 'disabled',
      ignoredFields: [],
    });
    expect(parsed.echo).toMatchObject({
      tool_choice: 'auto',
      parallel_tool_calls: true,
      metadata: {},
      text: { format: { type: 'text' } },
      store: true,
    });
  });

  it('maps every translated field', () => {
    const parsed = parseResponsesRequest({
      model: 'gpt-x',
      input: 'Hi',
      instructions: 'Be brief.',
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: {
        format: {
          type: 'json_schema',
          name: 'answer',
          schema: { type: 'object' },
          strict: true,
          description: 'An answer',
        },
      },
      reasoning: { effort: 'high', summary: 'auto' },
      max_output_tokens: 256,
      temperature: 0.5,
      top_p: 0.9,
      metadata: { trace: 'abc' },
      include: ['reasoning.encrypted_content'],
      store: false,
      previous_response_id: 'resp_1',
      truncation: 'auto',
      stream: true,
      background: false,
      prompt_cache_key: 'k',
      user: 'u',
    });
    expect(parsed.request).toEqual({
      model: 'gpt-x',
      instructions: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true }],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
      outputFormat: {
        type: 'json-schema',
        name: 'answer',
        schema: { type: 'object' },
        strict: true,
        description: 'An answer',
      },
      reasoningEffort: 'high',
      maxOutputTokens: 256,
      sampling: { temperature: 0.5, topP: 0.9 },
      metadata: { trace: 'abc' },
      stream: true,
    });
    expect(parsed).toMatchObject({
      store: false,
      include: ['reasoning.encrypted_content'],
      previousResponseId: 'resp_1',
      truncation: 'auto',
      ignoredFields: ['prompt_cache_key', 'user'],
    });
    expect(parsed.echo).toEqual({
      model: 'gpt-x',
      instructions: 'Be brief.',
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.9,
      max_output_tokens: 256,
      metadata: { trace: 'abc' },
      text: {
        format: {
          type: 'json_schema',
          name: 'answer',
          schema: { type: 'object' },
          strict: true,
          description: 'An answer',
        },
      },
      reasoning: { effort: 'high', summary: 'auto' },
      truncation: 'auto',
      store: false,
      previous_response_id: 'resp_1',
    });
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'required' }],
  ] as const)('maps tool_choice %s', (choice, canonical) => {
    expect(parseResponsesRequest({ model: 'm', input: 'x', tool_choice: choice }).request.toolChoice).toEqual(
      canonical,
    );
  });

  it('maps text.format json_object and text', () => {
    expect(
      parseResponsesRequest({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).request.outputFormat,
    ).toEqual({ type: 'json-object' });
    expect(
      parseResponsesRequest({ model: 'm', input: 'x', text: { format: { type: 'text' } } }).request.outputFormat,
    ).toEqual({ type: 'text' });
  });

  it('maps items of every role and type, grouping assistant-side items and tool outputs', () => {
    const unsealed = { producer: 'anthropic', signature: 'sig' };
    const parsed = parseResponsesRequest(
      {
        model: 'm',
        input: [
          { role: 'system', content: 'System rule' },
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Dev rule' }] },
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Look' },
              { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
              { type: 'input_file', file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' },
              { type: 'input_file', file_url: 'https://example.com/b.pdf' },
            ],
          },
          {
            type: 'reasoning',
            id: 'rs_1',
            summary: [{ type: 'summary_text', text: 'Thought' }],
            encrypted_content: 'sealed',
          },
          {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Calling', annotations: [] }],
          },
          { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
          { type: 'function_call', call_id: 'call_2', name: 'g', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'one' },
          {
            type: 'function_call_output',
            call_id: 'call_2',
            output: [
              { type: 'input_text', text: 'two' },
              { type: 'input_image', image_url: 'data:image/png;base64,AA' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'refusal', refusal: 'No.' },
              { type: 'input_text', text: 'Replayed' },
            ],
          },
          { role: 'user', content: 'Thanks' },
        ],
      },
      { unsealReasoning: (sealed) => (sealed === 'sealed' ? { artefact: unsealed } : null) },
    );
    expect(parsed.request.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'System rule' }] },
      { role: 'developer', content: [{ type: 'text', text: 'Dev rule' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', url: 'https://example.com/a.png', detail: 'low' },
          { type: 'file', data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' },
          { type: 'file', url: 'https://example.com/b.pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Thought', artefact: unsealed },
          { type: 'text', text: 'Calling' },
          { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{"a":1}' },
          { type: 'tool-call', callId: 'call_2', name: 'g', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'call_1', output: 'one' },
          {
            type: 'tool-result',
            callId: 'call_2',
            output: [
              { type: 'text', text: 'two' },
              { type: 'image', url: 'data:image/png;base64,AA' },
            ],
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'No.' },
          { type: 'text', text: 'Replayed' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
  });

  it('keeps reasoning text but drops an artefact that does not unseal, and prefers reasoning_text content', () => {
    const input = [
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'short' }],
        content: [{ type: 'reasoning_text', text: 'full' }],
        encrypted_content: 'forged',
      },
    ];
    expect(parseResponsesRequest({ model: 'm', input }, { unsealReasoning: () => null }).request.messages).toEqual([
      { role: 'assistant', content: [{ type: 'reasoning', text: 'full' }] },
    ]);
    expect(parseResponsesRequest({ model: 'm', input }).request.messages).toEqual([
      { role: 'assistant', content: [{ type: 'reasoning', text: 'full' }] },
    ]);
  });

  it('accepts previous_response_id without input', () => {
    expect(parseResponsesRequest({ model: 'm', previous_response_id: 'resp_1' }).request.messages).toEqual([]);
  });

  it.each([
    ['a non-object body', [], null, /JSON object/],
    ['a missing model', { input: 'x' }, 'model', /Missing required parameter: 'model'/],
    ['a missing input', { model: 'm' }, 'input', /Missing required parameter: 'input'/],
    [
      'background: true',
      { model: 'm', input: 'x', background: true },
      'background',
      /background responses are not supported/,
    ],
    [
      'a conversation',
      { model: 'm', input: 'x', conversation: 'conv_1' },
      'conversation',
      /conversations are not supported/,
    ],
    ['a stored prompt', { model: 'm', input: 'x', prompt: { id: 'pmpt_1' } }, 'prompt', /stored prompts/],
    [
      'a hosted-tool item',
      { model: 'm', input: [{ type: 'web_search_call', id: 'ws_1' }] },
      'input[0].type',
      /'web_search_call' items/,
    ],
    [
      'an item reference',
      { model: 'm', input: ['x', { type: 'item_reference', id: 'msg_1' }] },
      'input[1].type',
      /'item_reference' items/,
    ],
    [
      'an unknown item type',
      { model: 'm', input: [{ type: 'bogus' }] },
      'input[0].type',
      /Invalid value for 'input\[0\].type'/,
    ],
    ['a bad role', { model: 'm', input: [{ role: 'tool', content: 'x' }] }, 'input[0].role', /Invalid value/],
    [
      'an image by file id',
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] },
      'input[0].content[0].file_id',
      /file ids are not supported/,
    ],
    [
      'an image without url',
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image' }] }] },
      'input[0].content[0].image_url',
      /Missing required/,
    ],
    [
      'a file by file id',
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }] },
      'input[0].content[0].file_id',
      /file ids/,
    ],
    [
      'a file without data',
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf' }] }] },
      'input[0].content[0].file_data',
      /Missing required/,
    ],
    [
      'output_text in a user message',
      { model: 'm', input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] },
      'input[0].content[0].type',
      /only allowed in assistant/,
    ],
    [
      'an image in an assistant message',
      { model: 'm', input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/a.png' }] }] },
      'input[0].content[0].type',
      /assistant messages may not/,
    ],
    [
      'an image in a system message',
      { model: 'm', input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x/a.png' }] }] },
      'input[0].content[0].type',
      /only contain 'input_text'/,
    ],
    [
      'a function call without call_id',
      { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      'input[0].call_id',
      /Missing required/,
    ],
    [
      'a call_id over 64 characters',
      { model: 'm', input: [{ type: 'function_call_output', call_id: 'c'.repeat(65), output: 'x' }] },
      'input[0].call_id',
      /Invalid value/,
    ],
    [
      'a reasoning item without summary',
      { model: 'm', input: [{ type: 'reasoning', id: 'rs_1' }] },
      'input[0].summary',
      /Missing required/,
    ],
    [
      'a hosted tool, saying how Codex turns it off',
      { model: 'm', input: 'x', tools: [{ type: 'web_search', external_web_access: false }] },
      'tools[0].type',
      /hosted tool 'web_search' is not supported.*web_search = "disabled"/,
    ],
    [
      'a server-run tool search',
      { model: 'm', input: 'x', tools: [{ type: 'tool_search' }] },
      'tools[0].execution',
      /only a client-run tool search/,
    ],
    [
      'a local_shell tool',
      { model: 'm', input: 'x', tools: [{ type: 'local_shell' }] },
      'tools[0].type',
      /only 'function', 'namespace', 'custom' and client-run 'tool_search' tools/,
    ],
    [
      'a custom tool inside a namespace',
      {
        model: 'm',
        input: 'x',
        tools: [{ type: 'namespace', name: 'crm', description: 'CRM', tools: [{ type: 'custom', name: 'note' }] }],
      },
      'tools[0].tools[0].type',
      /only 'function' tools are supported inside a namespace/,
    ],
    [
      'a namespace without tools',
      { model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'crm', description: 'CRM', tools: [] }] },
      'tools[0].tools',
      /Invalid value|at least|too small/i,
    ],
    [
      'a bad tool name',
      { model: 'm', input: 'x', tools: [{ type: 'function', name: 'bad name' }] },
      'tools[0].name',
      /letters, digits/,
    ],
    ['a bad tool_choice', { model: 'm', input: 'x', tool_choice: 'any' }, 'tool_choice', /Invalid value/],
    [
      'a named tool_choice not in tools',
      { model: 'm', input: 'x', tool_choice: { type: 'function', name: 'f' } },
      'tool_choice.name',
      /no function named 'f'/,
    ],
    [
      'allowed_tools tool_choice',
      { model: 'm', input: 'x', tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] } },
      'tool_choice.type',
      /Invalid value/,
    ],
    [
      'a json_schema format without schema',
      { model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'a' } } },
      'text.format.schema',
      /Missing required/,
    ],
    [
      'a bad reasoning effort',
      { model: 'm', input: 'x', reasoning: { effort: 'extreme' } },
      'reasoning.effort',
      /Invalid value/,
    ],
    [
      'max_output_tokens under 16',
      { model: 'm', input: 'x', max_output_tokens: 15 },
      'max_output_tokens',
      /Invalid value/,
    ],
    [
      'a fractional max_output_tokens',
      { model: 'm', input: 'x', max_output_tokens: 16.5 },
      'max_output_tokens',
      /Invalid value/,
    ],
    ['temperature over 2', { model: 'm', input: 'x', temperature: 2.1 }, 'temperature', /Invalid value/],
    ['top_p over 1', { model: 'm', input: 'x', top_p: 1.1 }, 'top_p', /Invalid value/],
    [
      'more than 16 metadata keys',
      {
        model: 'm',
        input: 'x',
        metadata: Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v'])),
      },
      'metadata',
      /at most 16/,
    ],
    [
      'a metadata value over 512 characters',
      { model: 'm', input: 'x', metadata: { k: 'v'.repeat(513) } },
      'metadata.k',
      /Invalid value/,
    ],
    ['an unknown include value', { model: 'm', input: 'x', include: ['everything'] }, 'include[0]', /Invalid value/],
    ['a non-boolean store', { model: 'm', input: 'x', store: 'yes' }, 'store', /Invalid value/],
    ['a bad truncation', { model: 'm', input: 'x', truncation: 'sometimes' }, 'truncation', /Invalid value/],
    [
      'a non-boolean parallel_tool_calls',
      { model: 'm', input: 'x', parallel_tool_calls: 1 },
      'parallel_tool_calls',
      /Invalid value/,
    ],
  ])('refuses %s with a 400 naming the parameter', (_name, body, param, message) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });
});

describe('reasoning round trip', () => {
  it('gives back the vendor artefact of an encoded reasoning item that a stateless client replays', () => {
    const sealer = createReasoningSealer(createSecretBox('gateway secret'));
    const artefact = { producer: 'anthropic', signature: 'EqQBCgIYAhIM' };
    const response = encodeResponse(
      foldStreamParts([
        { type: 'reasoning-start', blockIndex: 0 },
        { type: 'reasoning-delta', blockIndex: 0, text: 'Thinking' },
        { type: 'reasoning-end', blockIndex: 0, artefact },
        { type: 'finish', finish: { reason: 'stop', rawReason: 'end_turn' } },
      ]),
      {
        responseId: 'resp_1',
        createdAt: 0,
        echo: parseResponsesRequest({ model: 'm', input: 'x' }).echo,
        createItemId: (prefix) => `${prefix}_1`,
        nowSeconds: () => 0,
        sealReasoning: (value) => sealer.seal(value),
      },
    );
    const replayed = parseResponsesRequest(
      { model: 'm', input: [...response.output, { role: 'user', content: 'Next' }] },
      { unsealReasoning: (sealed) => sealer.unseal(sealed) },
    );
    expect(replayed.request.messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'Thinking', artefact }],
    });
  });

  it('attaches a tool call artefact that a stateless client replays to its function call, wherever the carrier item is, never as reasoning', () => {
    const sealer = createReasoningSealer(createSecretBox('gateway secret'));
    const artefact = { producer: 'gemini', signature: 'c2lnLTE=' };
    const response = encodeResponse(
      foldStreamParts([
        { type: 'tool-call-start', blockIndex: 0, callId: 'call_r_0_0', name: 'get_weather' },
        { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{}' },
        { type: 'tool-call-end', blockIndex: 0, artefact },
        { type: 'tool-call-start', blockIndex: 1, callId: 'call_r_0_1', name: 'get_time' },
        { type: 'tool-call-end', blockIndex: 1 },
        { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
      ]),
      {
        responseId: 'resp_1',
        createdAt: 0,
        echo: parseResponsesRequest({ model: 'm', input: 'x' }).echo,
        createItemId: (prefix) => `${prefix}_1`,
        nowSeconds: () => 0,
        sealReasoning: (value) => sealer.seal(value),
      },
    );
    const [carrier, ...calls] = response.output;
    const outputs = [
      { type: 'function_call_output', call_id: 'call_r_0_0', output: 'sunny' },
      { type: 'function_call_output', call_id: 'call_r_0_1', output: 'noon' },
    ];
    const expected = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', callId: 'call_r_0_0', name: 'get_weather', arguments: '{}', artefact },
          { type: 'tool-call', callId: 'call_r_0_1', name: 'get_time', arguments: '' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'call_r_0_0', output: 'sunny' },
          { type: 'tool-result', callId: 'call_r_0_1', output: 'noon' },
        ],
      },
    ];
    const unsealReasoning = (sealed: string) => sealer.unseal(sealed);
    expect(
      parseResponsesRequest({ model: 'm', input: [carrier, ...calls, ...outputs] }, { unsealReasoning }).request
        .messages,
    ).toStrictEqual(expected);
    expect(
      parseResponsesRequest({ model: 'm', input: [...calls, carrier, ...outputs] }, { unsealReasoning }).request
        .messages,
    ).toStrictEqual(expected);
    // Another gateway's seal: the call goes without artefact (the carrier is then empty reasoning without one, which no vendor gets).
    const foreign = createReasoningSealer(createSecretBox('other secret'));
    const withoutArtefact = parseResponsesRequest(
      { model: 'm', input: [carrier, ...calls, ...outputs] },
      { unsealReasoning: (sealed) => foreign.unseal(sealed) },
    ).request.messages;
    expect(JSON.stringify(withoutArtefact)).not.toContain('c2lnLTE=');
  });
});

describe('namespace tools (Codex default tool list)', () => {
  const codexTools = [
    {
      type: 'function',
      name: 'exec_command',
      description: 'Run a command',
      parameters: { type: 'object' },
      strict: false,
    },
    {
      type: 'namespace',
      name: 'multi_agent_v1',
      description: 'Tools for spawning and managing sub-agents.',
      tools: [
        {
          type: 'function',
          name: 'spawn_agent',
          description: 'Spawn a sub-agent',
          parameters: { type: 'object' },
          strict: false,
        },
        {
          type: 'function',
          name: 'wait_agent',
          description: 'Wait for agents',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
    },
  ];

  it('gives vendors flat function tools and echoes the namespace as the client sent it', () => {
    const parsed = parseResponsesRequest({ model: 'm', input: 'x', tools: codexTools });
    expect(parsed.request.tools.map((tool) => tool.name)).toEqual([
      'exec_command',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
    ]);
    expect(parsed.request.tools[1]).toMatchObject({ description: 'Spawn a sub-agent', parameters: { type: 'object' } });
    expect(parsed.echo.tools[1]).toEqual({
      type: 'namespace',
      name: 'multi_agent_v1',
      description: 'Tools for spawning and managing sub-agents.',
      tools: [
        {
          type: 'function',
          name: 'spawn_agent',
          description: 'Spawn a sub-agent',
          parameters: { type: 'object' },
          strict: false,
        },
        {
          type: 'function',
          name: 'wait_agent',
          description: 'Wait for agents',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
    });
  });

  it('names a replayed call of a namespaced function as the vendor knows it', () => {
    const parsed = parseResponsesRequest({
      model: 'm',
      tools: codexTools,
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'call_1', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'spawned' },
      ],
    });
    expect(parsed.request.messages[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool-call', callId: 'call_1', name: 'multi_agent_v1__spawn_agent', arguments: '{}' }],
    });
  });

  it('answers a vendor call of the flat name with the namespace and the function name', () => {
    const parsed = parseResponsesRequest({ model: 'm', input: 'x', tools: codexTools });
    let counter = 0;
    const response = encodeResponse(
      foldStreamParts([
        { type: 'tool-call-start', blockIndex: 0, callId: 'call_9', name: 'multi_agent_v1__wait_agent' },
        { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"targets":[]}' },
        { type: 'tool-call-end', blockIndex: 0 },
        { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
      ]),
      {
        responseId: 'resp_1',
        createdAt: 1,
        echo: parsed.echo,
        createItemId: (prefix) => `${prefix}_${++counter}`,
        nowSeconds: () => 2,
      },
    );
    expect(response.output).toEqual([
      {
        id: 'fc_1',
        type: 'function_call',
        call_id: 'call_9',
        namespace: 'multi_agent_v1',
        name: 'wait_agent',
        arguments: '{"targets":[]}',
        status: 'completed',
      },
    ]);
  });
});
