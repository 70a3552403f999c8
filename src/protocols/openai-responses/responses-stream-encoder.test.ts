import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import {
  deterministicContext,
  plainEcho,
  scriptedAnswers,
} from '../../../test/protocols/openai-responses/scripted-answers.js';
import { encodeResponse } from './encode-response.js';
import { formatResponsesEvent } from './format-responses-event.js';
import { createResponsesStreamEncoder } from './responses-stream-encoder.js';
import type { ResponsesStreamEvent } from './responses-wire-types.js';

/** Every event an encoder writes for the parts, start to end. */
function encodeStream(parts: CanonicalStreamPart[]): ResponsesStreamEvent[] {
  const encoder = createResponsesStreamEncoder(deterministicContext());
  return [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
}

const terminalTypes = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The ordering rules of the SDK's accumulator and Codex (wave2-contracts 1.7, 1.10, 1.12). */
function expectWellFormed(events: ResponsesStreamEvent[]): void {
  expect(events[0]?.type).toBe('response.created');
  expect(events[1]?.type).toBe('response.in_progress');
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  const added: string[] = [];
  const done = new Map<number, unknown>();
  const contentParts = new Set<number>();
  for (const event of events.slice(2, -1)) {
    expect(terminalTypes.has(event.type)).toBe(false);
    const outputIndex = event.output_index as number;
    if (event.type === 'response.output_item.added') {
      expect(outputIndex).toBe(added.length);
      added.push((event.item as { id: string }).id);
      continue;
    }
    expect(outputIndex).toBeLessThan(added.length);
    expect(done.has(outputIndex)).toBe(false);
    if (event.item_id !== undefined) expect(event.item_id).toBe(added[outputIndex]);
    if (event.type === 'response.content_part.added') contentParts.add(outputIndex);
    if (event.type === 'response.output_text.delta') expect(contentParts.has(outputIndex)).toBe(true);
    if (event.type === 'response.output_item.done') done.set(outputIndex, event.item);
  }
  expect(done.size).toBe(added.length);
  const terminal = events.at(-1)!;
  expect(terminalTypes.has(terminal.type)).toBe(true);
  const response = terminal.response as { output: unknown[]; status: string };
  expect(terminal.type).toBe(`response.${response.status}`);
  expect(response.output).toEqual(added.map((_, index) => done.get(index)));
}

describe('createResponsesStreamEncoder', () => {
  it.each(Object.entries(scriptedAnswers))(
    'streams %s well formed, ending with the non-streamed encoding of the same parts',
    (_name, parts) => {
      const events = encodeStream(parts);
      expectWellFormed(events);
      expect(events.at(-1)!.response).toEqual(encodeResponse(foldStreamParts(parts), deterministicContext()));
    },
  );

  it('streams text as created, in_progress, item and content part added, deltas, the done events and completed', () => {
    const events = encodeStream(scriptedAnswers.text);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[0]!.response).toMatchObject({
      id: 'resp_test1',
      status: 'in_progress',
      output: [],
      usage: null,
      completed_at: null,
    });
    expect(events[4]).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'Hello',
      logprobs: [],
    });
    expect(events[6]).toMatchObject({ text: 'Hello, world', logprobs: [] });
  });

  it('streams a function call with its argument deltas and a done event carrying name and arguments', () => {
    const events = encodeStream(scriptedAnswers['function call']);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]!.item).toEqual({
      id: 'fc_1',
      type: 'function_call',
      call_id: 'call_weather',
      name: 'get_weather',
      arguments: '',
      status: 'in_progress',
    });
    // With encrypted content asked for, the call is held until its second piece (an artefact may come with a whole call).
    expect(events[3]).toMatchObject({ type: 'response.function_call_arguments.delta', delta: '{"city":"Par' });
    expect(events[5]).toMatchObject({
      item_id: 'fc_1',
      output_index: 0,
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
  });

  it('streams reasoning as a summary part before the message, at output 0 and 1', () => {
    const types = encodeStream(scriptedAnswers['reasoning and text']).map((event) => event.type);
    expect(types.slice(2, 9)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
    ]);
  });

  it('closes an open item and ends incomplete on a max-tokens cut-off', () => {
    const events = encodeStream(scriptedAnswers['max-tokens cut-off']);
    expect(events.at(-2)).toMatchObject({ type: 'response.output_item.done', item: { status: 'incomplete' } });
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('ends failed at once on a vendor error (an error event as OpenAI sends, then closed items and response.failed), and emits nothing after it', () => {
    const encoder = createResponsesStreamEncoder(deterministicContext());
    encoder.start();
    encoder.push({ type: 'text-start', blockIndex: 0 });
    encoder.push({ type: 'text-delta', blockIndex: 0, text: 'partial' });
    const failure = encoder.push({ type: 'error', failure: { code: 'server_error', message: 'upstream died' } });
    expect(failure.map((event) => event.type)).toEqual([
      'error',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.failed',
    ]);
    expect(failure[0]).toMatchObject({ code: 'server_error', message: 'upstream died', param: null });
    expect(failure.at(-1)!.response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'upstream died' },
      output: [{ content: [{ text: 'partial' }] }],
    });
    expect(encoder.push({ type: 'text-delta', blockIndex: 0, text: 'late' })).toEqual([]);
    expect(encoder.end()).toEqual([]);
  });

  it('never claims success for a stream that stopped without a finish', () => {
    const events = encodeStream([
      { type: 'text-start', blockIndex: 0 },
      { type: 'text-delta', blockIndex: 0, text: 'cut' },
      { type: 'text-end', blockIndex: 0 },
    ]);
    expectWellFormed(events);
    expect(events.at(-1)!.type).toBe('response.failed');
  });

  it('gives interleaved parallel tool calls their own dense indices', () => {
    const events = encodeStream([
      { type: 'tool-call-start', blockIndex: 0, callId: 'call_a', name: 'a' },
      { type: 'tool-call-start', blockIndex: 1, callId: 'call_b', name: 'b' },
      { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{"b":1}' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'tool-call-end', blockIndex: 1 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_calls' } },
    ]);
    expectWellFormed(events);
    expect(events.at(-1)!.response).toMatchObject({
      output: [
        { id: 'fc_1', arguments: '{"a":1}' },
        { id: 'fc_2', arguments: '{"b":1}' },
      ],
    });
  });

  it('writes each event as SSE with an event line equal to its type and no [DONE]', () => {
    const events = encodeStream(scriptedAnswers.text);
    const text = events.map(formatResponsesEvent).join('');
    expect(formatResponsesEvent(events[0]!)).toBe(`event: response.created\ndata: ${JSON.stringify(events[0])}\n\n`);
    expect(text).not.toContain('[DONE]');
  });
});

describe('createResponsesStreamEncoder with redacted reasoning', () => {
  it('opens and closes a reasoning item without summary events when there is no text, sealing its data', () => {
    const parts: CanonicalStreamPart[] = [
      { type: 'reasoning-start', blockIndex: 0 },
      { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', redactedData: 'opaque' } },
      { type: 'finish', finish: { reason: 'stop', rawReason: 'end_turn' } },
    ];
    const events = encodeStream(parts);
    expectWellFormed(events);
    expect(events.map((event) => event.type).slice(2)).toEqual([
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[3]!.item).toEqual({
      id: 'rs_1',
      type: 'reasoning',
      summary: [],
      encrypted_content: 'sealed:{"producer":"anthropic","redactedData":"opaque"}',
    });
  });
});

describe('createResponsesStreamEncoder with tool call artefacts', () => {
  const wholeCalls = scriptedAnswers['whole function calls, one with a Gemini artefact'];

  it('writes a reasoning item sealing the artefact with the call id right before the call, which is written whole at its end', () => {
    const events = encodeStream(wholeCalls);
    expectWellFormed(events);
    expect(events.slice(2, -1).map((event) => `${event.type}@${String(event.output_index)}`)).toEqual([
      'response.output_item.added@0',
      'response.output_item.done@0',
      'response.output_item.added@1',
      'response.function_call_arguments.delta@1',
      'response.function_call_arguments.done@1',
      'response.output_item.done@1',
      'response.output_item.added@2',
      'response.function_call_arguments.delta@2',
      'response.function_call_arguments.done@2',
      'response.output_item.done@2',
    ]);
    expect(events[3]!.item).toEqual({
      id: 'rs_1',
      type: 'reasoning',
      summary: [],
      encrypted_content: 'sealed:{"producer":"gemini","signature":"c2lnLTE=","callId":"call_r_0_0"}',
    });
    expect(events[4]!.item).toMatchObject({ id: 'fc_2', type: 'function_call', call_id: 'call_r_0_0', arguments: '' });
  });

  it('shows no artefact and holds nothing when the client did not ask for encrypted content', () => {
    const { sealReasoning: _omitted, ...withoutSealer } = deterministicContext();
    const encoder = createResponsesStreamEncoder(withoutSealer);
    encoder.start();
    expect(encoder.push(wholeCalls[0]!).map((event) => event.type)).toEqual(['response.output_item.added']);
    const events = [...wholeCalls.slice(1).flatMap((part) => encoder.push(part)), ...encoder.end()];
    expect(JSON.stringify(events)).not.toContain('c2lnLTE=');
    expect((events.at(-1)!.response as { output: Array<{ type: string }> }).output.map((item) => item.type)).toEqual([
      'function_call',
      'function_call',
    ]);
  });

  it('streams a call whose arguments come in pieces, and puts an artefact that still comes at its end right after it', () => {
    const events = encodeStream([
      { type: 'tool-call-start', blockIndex: 0, callId: 'call_1', name: 'write' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '1' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '}' },
      { type: 'tool-call-end', blockIndex: 0, artefact: { producer: 'gemini', signature: 'c2ln' } },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
    ]);
    expectWellFormed(events);
    expect(events.slice(2, -1).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
    ]);
    expect(events[3]).toMatchObject({ delta: '{"a":1' });
    expect((events.at(-1)!.response as { output: unknown[] }).output).toEqual([
      {
        id: 'fc_1',
        type: 'function_call',
        call_id: 'call_1',
        name: 'write',
        arguments: '{"a":1}',
        status: 'completed',
      },
      {
        id: 'rs_2',
        type: 'reasoning',
        summary: [],
        encrypted_content: 'sealed:{"producer":"gemini","signature":"c2ln","callId":"call_1"}',
      },
    ]);
  });
});

describe('a namespaced function call, streamed', () => {
  it('names the namespace and the function in the added and done items and the arguments done event', () => {
    const echo = {
      ...plainEcho('gpt-test'),
      tools: [
        {
          type: 'namespace' as const,
          name: 'multi_agent_v1',
          description: 'Sub-agents',
          tools: [
            { type: 'function' as const, name: 'spawn_agent', description: null, parameters: null, strict: null },
          ],
        },
      ],
    };
    const encoder = createResponsesStreamEncoder(deterministicContext(echo));
    const parts: CanonicalStreamPart[] = [
      { type: 'tool-call-start', blockIndex: 0, callId: 'call_s', name: 'multi_agent_v1__spawn_agent' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"message":' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '"hi"}' },
      { type: 'tool-call-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ];
    const events = [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
    expectWellFormed(events);
    const named = { namespace: 'multi_agent_v1', name: 'spawn_agent' };
    expect(events.find((event) => event.type === 'response.output_item.added')?.item).toMatchObject(named);
    expect(events.find((event) => event.type === 'response.output_item.done')?.item).toMatchObject({
      ...named,
      arguments: '{"message":"hi"}',
    });
    expect(events.find((event) => event.type === 'response.function_call_arguments.done')).toMatchObject({
      name: 'spawn_agent',
    });
    expect(JSON.stringify(events)).not.toContain('multi_agent_v1__spawn_agent');
  });
});
