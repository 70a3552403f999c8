import { describe, expect, it } from 'vitest';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { deterministicContext, scriptedAnswers } from '../../../test/protocols/openai-responses/scripted-answers.js';
import { encodeResponse } from './encode-response.js';

const usage = {
  input_tokens: 20,
  input_tokens_details: { cached_tokens: 8, cache_write_tokens: 2 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 5 },
  total_tokens: 32,
};

describe('encodeResponse', () => {
  it('encodes a text answer as a completed Response with a gateway message id, the echo and usage', () => {
    const response = encodeResponse(foldStreamParts(scriptedAnswers.text), deterministicContext());
    expect(response).toEqual({
      id: 'resp_test1',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      completed_at: 1_700_000_005,
      error: null,
      incomplete_details: null,
      model: 'gpt-test',
      instructions: null,
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      temperature: null,
      top_p: null,
      max_output_tokens: null,
      metadata: {},
      text: { format: { type: 'text' } },
      reasoning: { effort: null, summary: null },
      truncation: 'disabled',
      store: true,
      previous_response_id: null,
      output: [
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello, world', annotations: [], logprobs: [] }],
        },
      ],
      usage,
      background: false,
      user: null,
    });
    expect(JSON.stringify(response)).not.toContain('chatcmpl-vendor');
  });

  it('encodes a function call with an fc_ item id and the vendor call id as call_id', () => {
    const response = encodeResponse(foldStreamParts(scriptedAnswers['function call']), deterministicContext());
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([
      {
        id: 'fc_1',
        type: 'function_call',
        call_id: 'call_weather',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
    ]);
  });

  it('seals the reasoning artefact into encrypted_content when a sealer is given, and leaves it out otherwise', () => {
    const answer = foldStreamParts(scriptedAnswers['reasoning and text']);
    expect(encodeResponse(answer, deterministicContext()).output[0]).toEqual({
      id: 'rs_1',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user greets; greet back.' }],
      encrypted_content: 'sealed:{"producer":"anthropic","signature":"EqQBCgIYAhIM"}',
    });
    const unsealed = { ...deterministicContext(), sealReasoning: undefined };
    expect(encodeResponse(answer, unsealed).output[0]).toEqual({
      id: 'rs_1',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user greets; greet back.' }],
    });
  });

  it('answers a max-tokens cut-off as incomplete with the reason, its unfinished message incomplete too', () => {
    const response = encodeResponse(foldStreamParts(scriptedAnswers['max-tokens cut-off']), deterministicContext());
    expect(response).toMatchObject({
      status: 'incomplete',
      completed_at: null,
      error: null,
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(response.output[0]).toMatchObject({ status: 'incomplete', content: [{ text: 'Once upon a' }] });
  });

  it('answers a content filter stop as incomplete with reason content_filter', () => {
    const response = encodeResponse(
      foldStreamParts([{ type: 'finish', finish: { reason: 'content-filter', rawReason: 'SAFETY' } }]),
      deterministicContext(),
    );
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      usage: null,
    });
  });

  it('answers a vendor failure, and an answer that never finished, as failed with an error code from the spec', () => {
    const failed = encodeResponse(
      foldStreamParts([{ type: 'error', failure: { code: 'rate_limit_exceeded', message: 'slow down' } }]),
      deterministicContext(),
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'slow down' },
      incomplete_details: null,
    });
    const unavailable = encodeResponse(
      foldStreamParts([{ type: 'error', failure: { code: 'service_unavailable', message: 'overloaded' } }]),
      deterministicContext(),
    );
    expect(unavailable.error).toEqual({ code: 'server_error', message: 'overloaded' });
    const unfinished = encodeResponse(foldStreamParts([{ type: 'text-start', blockIndex: 0 }]), deterministicContext());
    expect(unfinished).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });
});

describe('encodeResponse with tool call artefacts', () => {
  const wholeCalls = foldStreamParts(scriptedAnswers['whole function calls, one with a Gemini artefact']);

  it('puts a reasoning item sealing the artefact with its call id right before the call; call ids stay the vendor ones', () => {
    expect(encodeResponse(wholeCalls, deterministicContext()).output).toEqual([
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [],
        encrypted_content: 'sealed:{"producer":"gemini","signature":"c2lnLTE=","callId":"call_r_0_0"}',
      },
      {
        id: 'fc_2',
        type: 'function_call',
        call_id: 'call_r_0_0',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
      {
        id: 'fc_3',
        type: 'function_call',
        call_id: 'call_r_0_1',
        name: 'get_time',
        arguments: '{}',
        status: 'completed',
      },
    ]);
  });

  it('leaves the artefact out when the client did not ask for encrypted content', () => {
    const { sealReasoning: _omitted, ...withoutSealer } = deterministicContext();
    expect(encodeResponse(wholeCalls, withoutSealer).output.map((item) => item.type)).toEqual([
      'function_call',
      'function_call',
    ]);
  });
});
