import { describe, expect, it } from 'vitest';
import { ResponseFactsCollector } from './response-facts-collector.js';

describe('ResponseFactsCollector', () => {
  it('reads a whole Anthropic Message and a whole incomplete Response', () => {
    const message = new ResponseFactsCollector();
    message.readJson(JSON.stringify({ id: 'msg_1', model: 'claude-x', stop_reason: 'max_tokens', content: [] }));
    expect(message.facts()).toEqual({ id: 'msg_1', model: 'claude-x', finishReasons: ['max_tokens'] });

    const response = new ResponseFactsCollector();
    response.readJson(
      JSON.stringify({
        id: 'resp_1',
        model: 'gpt-5',
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
      }),
    );
    expect(response.facts()).toEqual({ id: 'resp_1', model: 'gpt-5', finishReasons: ['max_output_tokens'] });
  });

  it('reads the named events of a Messages stream and the terminal event of a Responses stream only', () => {
    const messages = new ResponseFactsCollector();
    messages.readEvent(
      'message_start',
      JSON.stringify({ type: 'message_start', message: { id: 'msg_2', model: 'claude-y' } }),
    );
    messages.readEvent('content_block_delta', '{"type":"content_block_delta","delta":{"stop_reason":"ignored"}}');
    messages.readEvent('message_delta', JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }));
    expect(messages.facts()).toEqual({ id: 'msg_2', model: 'claude-y', finishReasons: ['end_turn'] });

    const responses = new ResponseFactsCollector();
    responses.readEvent(
      'response.created',
      JSON.stringify({ response: { id: 'resp_2', model: 'gpt-5', status: 'in_progress' } }),
    );
    responses.readEvent(
      'response.completed',
      JSON.stringify({ response: { id: 'resp_2', model: 'gpt-5', status: 'completed' } }),
    );
    expect(responses.facts()).toEqual({ id: 'resp_2', model: 'gpt-5', finishReasons: ['completed'] });
  });

  it('knows nothing of an answer it cannot read, and never throws', () => {
    const collector = new ResponseFactsCollector();
    collector.readJson('<html>not json</html>');
    collector.readEvent(undefined, '{"id": 42, "choices": "many"}');
    expect(collector.facts()).toBeUndefined();
  });
});
