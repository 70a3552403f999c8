import { describe, expect, it } from 'vitest';
import { readOpenAiWireAnswerUsage } from './read-openai-wire-answer-usage.js';

const usage = { promptTokens: 3, completionTokens: 4, totalTokens: 7, cachedPromptTokens: 0, reasoningTokens: 0 };

describe('readOpenAiWireAnswerUsage: images', () => {
  it('counts the images of the `data` array, and leaves an unreadable answer uncounted', () => {
    const answer = JSON.stringify({ created: 1, data: [{ b64_json: 'AAAA' }, { url: 'http://x' }, {}] });
    expect(readOpenAiWireAnswerUsage('/images/generations', answer, usage)).toEqual({ images: 3 });
    expect(readOpenAiWireAnswerUsage('/images/edits', JSON.stringify({ data: [] }), undefined)).toEqual({ images: 0 });
    expect(readOpenAiWireAnswerUsage('/images/edits', '{"data": 3}', undefined)).toEqual({ images: undefined });
    expect(readOpenAiWireAnswerUsage('/images/edits', 'not json', undefined)).toEqual({ images: undefined });
  });
});

describe('readOpenAiWireAnswerUsage: transcriptions', () => {
  const read = (body: unknown) =>
    readOpenAiWireAnswerUsage(
      '/audio/transcriptions',
      typeof body === 'string' ? body : JSON.stringify(body),
      undefined,
    ).transcription;

  it("reads the vendor's billed seconds before verbose_json's duration", () => {
    expect(read({ text: 'x', usage: { type: 'duration', seconds: 9 } })).toEqual({ seconds: 9 });
    expect(read({ text: 'x', duration: 8.47, usage: { type: 'duration', seconds: 9 } })).toEqual({ seconds: 9 });
    expect(read({ text: 'x', duration: 8.47, segments: [] })).toEqual({ seconds: 8.47 });
  });

  it('reads token-typed usage, keeping a verbose duration beside it for models priced by the minute', () => {
    const tokens = { type: 'tokens', input_tokens: 700, output_tokens: 120, total_tokens: 820 };
    expect(read({ text: 'x', usage: tokens })).toEqual({ tokens: { inputTokens: 700, outputTokens: 120 } });
    expect(read({ text: 'x', duration: 2, usage: tokens })).toEqual({
      tokens: { inputTokens: 700, outputTokens: 120 },
      seconds: 2,
    });
    expect(read({ text: 'x', usage: { type: 'tokens', input_tokens: 'many' } })).toEqual({
      tokens: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it('finds the usage in the last event of a streamed (SSE) transcription', () => {
    const tokens = { type: 'tokens', input_tokens: 70, output_tokens: 12 };
    const events = `data: {"type":"transcript.text.delta","delta":"x"}\n\ndata: {"type":"transcript.text.done","text":"x","usage":${JSON.stringify(tokens)}}\n\n`;
    expect(read(events)).toEqual({ tokens: { inputTokens: 70, outputTokens: 12 } });
  });

  it('reports nothing for a plain-text answer or a duration that is no real duration', () => {
    expect(read('plain transcript')).toEqual({});
    expect(read({ text: 'x', duration: 0 })).toEqual({});
    expect(read({ text: 'x', duration: -3, usage: { type: 'duration', seconds: 'nine' } })).toEqual({});
    expect(read(42)).toEqual({});
  });
});

describe('readOpenAiWireAnswerUsage: token-priced answers', () => {
  it('reads nothing more when the answer carried its usage', () => {
    const answer = JSON.stringify({ choices: [{ message: { content: 'hi' } }], usage: {} });
    expect(readOpenAiWireAnswerUsage('/chat/completions', answer, usage)).toEqual({});
  });

  it('extracts the generated text of an answer without usage: content, legacy text, reasoning and tool arguments', () => {
    const chat = JSON.stringify({
      choices: [
        {
          message: {
            content: 'hello',
            reasoning_content: 'think ',
            tool_calls: [{ function: { name: 'f', arguments: '{"a":1}' } }],
          },
        },
        { message: { content: null } },
        { message: { content: ' there' } },
      ],
    });
    expect(readOpenAiWireAnswerUsage('/chat/completions', chat, undefined)).toEqual({
      text: 'think hello{"a":1} there',
    });
    const completion = JSON.stringify({ choices: [{ text: 'once upon' }, { text: 7 }] });
    expect(readOpenAiWireAnswerUsage('/completions', completion, undefined)).toEqual({ text: 'once upon' });
  });

  it('counts no text for an embeddings answer or an answer it cannot read', () => {
    expect(readOpenAiWireAnswerUsage('/embeddings', '{"data":[{"embedding":[0.1]}]}', undefined)).toEqual({
      text: '',
    });
    expect(readOpenAiWireAnswerUsage('/chat/completions', '{"choices":"none"}', undefined)).toEqual({ text: '' });
    expect(readOpenAiWireAnswerUsage('/chat/completions', 'cut {', undefined)).toEqual({ text: '' });
  });
});
