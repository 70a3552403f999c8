import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { GatewayError } from '../../core/gateway-error.js';
import { deterministicContext } from '../../../test/protocols/openai-responses/scripted-answers.js';
import { encodeResponse } from './encode-response.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { createResponsesStreamEncoder } from './responses-stream-encoder.js';

const grammar = 'start: "*** Begin Patch" LF hunk+ "*** End Patch"';
/** Codex 0.171's two non-function tools, as it sends them (descriptions shortened). */
const codexTools = [
  { type: 'function', name: 'exec_command', description: 'Runs a command', parameters: { type: 'object' } },
  {
    type: 'custom',
    name: 'apply_patch',
    description: 'Edits files. This is a FREEFORM tool.',
    format: { type: 'grammar', syntax: 'lark', definition: grammar },
  },
  {
    type: 'tool_search',
    execution: 'client',
    description: 'Searches over deferred tools.',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
];
const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n';

function contextFor(body: Record<string, unknown>) {
  const parsed = parseResponsesRequest(body);
  return { ...deterministicContext(parsed.echo), loadedTools: parsed.loadedTools };
}

describe('custom tools for translated vendors', () => {
  it('become a function with one string parameter, the grammar in its description; the echo keeps them as sent', () => {
    const parsed = parseResponsesRequest({ model: 'm', input: 'x', tools: codexTools });
    const applyPatch = parsed.request.tools.find((tool) => tool.name === 'apply_patch');
    expect(applyPatch?.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.any(String) as string } },
      required: ['input'],
      additionalProperties: false,
    });
    expect(applyPatch?.description).toContain('Edits files.');
    expect(applyPatch?.description).toContain(`Lark grammar:\n${grammar}`);
    expect(parsed.echo.tools[1]).toEqual({
      type: 'custom',
      name: 'apply_patch',
      description: 'Edits files. This is a FREEFORM tool.',
      format: { type: 'grammar', syntax: 'lark', definition: grammar },
    });
  });

  it('replay a custom_tool_call and its output as the vendor call of that function and its result', () => {
    const parsed = parseResponsesRequest({
      model: 'm',
      tools: codexTools,
      input: [
        { role: 'user', content: 'patch it' },
        { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!' },
      ],
    });
    expect(parsed.request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', callId: 'call_p', name: 'apply_patch', arguments: JSON.stringify({ input: patch }) },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_p', output: 'Done!' }] },
    ]);
  });

  it("turn the vendor's call back into a custom_tool_call carrying the input as free text", () => {
    const body = { model: 'm', input: 'x', tools: codexTools };
    const answer = foldStreamParts([
      { type: 'tool-call-start', blockIndex: 0, callId: 'toolu_1', name: 'apply_patch' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: JSON.stringify({ input: patch }) },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ]);
    expect(encodeResponse(answer, contextFor(body)).output).toEqual([
      {
        id: 'fc_1',
        type: 'custom_tool_call',
        call_id: 'toolu_1',
        name: 'apply_patch',
        input: patch,
        status: 'completed',
      },
    ]);
  });

  it('stream a custom call whole: its input in one custom_tool_call_input delta and done, no function events', () => {
    const encoder = createResponsesStreamEncoder({
      ...contextFor({ model: 'm', input: 'x', tools: codexTools }),
      sealReasoning: undefined,
    });
    const arguments_ = JSON.stringify({ input: patch });
    const parts: CanonicalStreamPart[] = [
      { type: 'tool-call-start', blockIndex: 0, callId: 'toolu_1', name: 'apply_patch' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: arguments_.slice(0, 12) },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: arguments_.slice(12, 30) },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: arguments_.slice(30) },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ];
    const events = [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
    expect(events.slice(2).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]?.item).toMatchObject({
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: '',
      call_id: 'toolu_1',
    });
    expect(events[3]).toMatchObject({ item_id: 'fc_1', output_index: 0, delta: patch });
    expect(events[4]).toMatchObject({ item_id: 'fc_1', output_index: 0, input: patch });
    expect(events[5]?.item).toMatchObject({ type: 'custom_tool_call', input: patch, status: 'completed' });
  });
});

describe('a client-run tool_search for translated vendors', () => {
  it("is a function named tool_search with the client's parameters", () => {
    const parsed = parseResponsesRequest({ model: 'm', input: 'x', tools: codexTools });
    expect(parsed.request.tools.find((tool) => tool.name === 'tool_search')).toEqual({
      name: 'tool_search',
      description: 'Searches over deferred tools.',
      parameters: codexTools[2]?.parameters,
      strict: null,
    });
  });

  it("turns the vendor's call into a tool_search_call with the arguments as an object", () => {
    const answer = foldStreamParts([
      { type: 'tool-call-start', blockIndex: 0, callId: 'toolu_s', name: 'tool_search' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"query":"calendar","limit":2}' },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ]);
    expect(encodeResponse(answer, contextFor({ model: 'm', input: 'x', tools: codexTools })).output).toEqual([
      {
        id: 'fc_1',
        type: 'tool_search_call',
        call_id: 'toolu_s',
        execution: 'client',
        arguments: { query: 'calendar', limit: 2 },
        status: 'completed',
      },
    ]);
  });

  it('streams a tool search call whole, in its added and done items only', () => {
    const encoder = createResponsesStreamEncoder({
      ...contextFor({ model: 'm', input: 'x', tools: codexTools }),
      sealReasoning: undefined,
    });
    const parts: CanonicalStreamPart[] = [
      { type: 'tool-call-start', blockIndex: 0, callId: 'toolu_s', name: 'tool_search' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"query":' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '"calendar"}' },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ];
    const events = [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
    expect(events.slice(2).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    const searchCall = {
      type: 'tool_search_call',
      call_id: 'toolu_s',
      execution: 'client',
      arguments: { query: 'calendar' },
    };
    expect(events[2]?.item).toMatchObject({ ...searchCall, status: 'in_progress' });
    expect(events[3]?.item).toMatchObject({ ...searchCall, status: 'completed' });
  });

  it('replays the search and its output, and gives the vendor the loaded tools, whose calls map back', () => {
    const body = {
      model: 'm',
      tools: codexTools,
      input: [
        { role: 'user', content: 'book it' },
        { type: 'tool_search_call', call_id: 'call_s', execution: 'client', arguments: { query: 'calendar' } },
        {
          type: 'tool_search_output',
          call_id: 'call_s',
          execution: 'client',
          status: 'completed',
          tools: [
            {
              type: 'namespace',
              name: 'mcp__calendar',
              description: 'Calendar',
              tools: [{ type: 'function', name: 'book', description: 'Books a slot', parameters: { type: 'object' } }],
            },
          ],
        },
      ],
    };
    const parsed = parseResponsesRequest(body);
    expect(parsed.request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', callId: 'call_s', name: 'tool_search', arguments: '{"query":"calendar"}' }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'call_s', output: 'Tools loaded, callable from now on: mcp__calendar__book.' },
        ],
      },
    ]);
    expect(parsed.request.tools.map((tool) => tool.name)).toEqual([
      'exec_command',
      'apply_patch',
      'tool_search',
      'mcp__calendar__book',
    ]);
    expect(parsed.echo.tools).toHaveLength(3);
    const answer = foldStreamParts([
      { type: 'tool-call-start', blockIndex: 0, callId: 'toolu_b', name: 'mcp__calendar__book' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ]);
    expect(encodeResponse(answer, contextFor(body)).output[0]).toMatchObject({
      type: 'function_call',
      namespace: 'mcp__calendar',
      name: 'book',
    });
  });

  it('refuses a replayed server-run search, which only OpenAI can continue', () => {
    const refuse = () =>
      parseResponsesRequest({
        model: 'm',
        input: [{ type: 'tool_search_call', call_id: null, execution: 'server', arguments: {} }],
      });
    expect(refuse).toThrow(GatewayError);
    expect(refuse).toThrow(/only client-run tool searches/);
  });

  it('refuses a function named tool_search beside the tool search', () => {
    expect(() =>
      parseResponsesRequest({
        model: 'm',
        input: 'x',
        tools: [...codexTools, { type: 'function', name: 'tool_search', parameters: { type: 'object' } }],
      }),
    ).toThrow(/'tool_search' is used by more than one tool/);
  });
});
