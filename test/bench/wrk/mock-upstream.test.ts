// The wrk comparison's upstream must answer like OpenAI (usage included), or the gateway could not bill it.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWrkChatBody } from '../../../bench/wrk/create-wrk-chat-body.js';
import { startMockUpstream, type MockUpstream } from '../../../bench/wrk/mock-upstream.js';

let mockUpstream: MockUpstream;
beforeAll(async () => {
  mockUpstream = await startMockUpstream();
});
afterAll(async () => {
  await mockUpstream.close();
});

async function post(body: string): Promise<{ status: number; contentType: string; reads: string[] }> {
  const response = await request(`${mockUpstream.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const reads: string[] = [];
  for await (const chunk of response.body) reads.push((chunk as Buffer).toString('utf8'));
  return { status: response.statusCode, contentType: String(response.headers['content-type']), reads };
}

function dataLines(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

describe('the mock upstream of the wrk comparison', () => {
  it('answers a non-streamed request with a chat completion and its usage', async () => {
    const answer = await post(createWrkChatBody({ model: 'gpt-4o-mini', stream: false, bytes: 462 }));
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    const completion = JSON.parse(answer.reads.join('')) as {
      object: string;
      model: string;
      choices: { message: { content: string } }[];
      usage: { total_tokens: number };
    };
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.choices[0]?.message.content).toMatch(/^word1 word2 .* word20$/);
    expect(completion.usage.total_tokens).toBe(116);
  });

  it('streams 22 chunk events, usage in the last, then [DONE]', async () => {
    const answer = await post(createWrkChatBody({ model: 'gpt-4o-mini', stream: true, bytes: 462 }));
    expect(answer.contentType).toBe('text/event-stream');
    const data = dataLines(answer.reads.join(''));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line) as { object: string; usage?: object });
    expect(chunks).toHaveLength(22);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 96, completion_tokens: 20, total_tokens: 116 });
  });

  it('paces the stream of a `-paced` model (events written apart, so they arrive in many reads) with the same events', async () => {
    const burst = await post(createWrkChatBody({ model: 'gpt-4o-mini-paced', stream: false, bytes: 462 }));
    expect(burst.status).toBe(200);
    const paced = await post(createWrkChatBody({ model: 'gpt-4o-mini-paced', stream: true, bytes: 462 }));
    const pacedData = dataLines(paced.reads.join(''));
    expect(pacedData).toHaveLength(23);
    expect(paced.reads.length).toBeGreaterThan(1);
    const unpaced = await post(createWrkChatBody({ model: 'gpt-4o-mini', stream: true, bytes: 462 }));
    expect(pacedData.map((line) => line.replace('gpt-4o-mini-paced', 'gpt-4o-mini'))).toEqual(
      dataLines(unpaced.reads.join('')),
    );
  });
});
