// The upstream of the wrk comparison: a minimal `node:http` server that answers POST /v1/chat/completions with a fixed
// chat completion, or with a stream of 22 chunk events when the body asks for `"stream":true`. Streams are sent at
// once (burst) unless the model name ends in `-paced`: then one event every 5 ms. Kept far cheaper than the paths it
// serves, so the direct path shows what the load generator and loopback allow.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running mock upstream. */
export interface MockUpstream {
  /** base URL including `/v1`, e.g. `http://127.0.0.1:PORT/v1` */
  url: string;
  close(): Promise<void>;
}

/** Suffix of a model name that makes streams paced. */
export const pacedModelSuffix = '-paced';
/** Time between two events of a paced stream, in milliseconds. */
export const pacedIntervalMs = 5;
/** Content events per stream; with the finish and usage events a stream has 22 `chat.completion.chunk` events. */
export const contentEventCount = 20;

const created = 1_764_000_000;
const usage = { prompt_tokens: 96, completion_tokens: contentEventCount, total_tokens: 96 + contentEventCount };
const streamPattern = /"stream"\s*:\s*true/;
const modelPattern = /"model"\s*:\s*"([^"]*)"/;

/** Starts the mock on 127.0.0.1 and a free port. */
export async function startMockUpstream(): Promise<MockUpstream> {
  const server = http.createServer({ noDelay: true, keepAliveTimeout: 75_000 }, (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(body: string, response: http.ServerResponse): void {
  const model = modelPattern.exec(body)?.[1] ?? 'unknown';
  if (!streamPattern.test(body)) {
    const completion = Buffer.from(JSON.stringify(chatCompletion(model)));
    response
      .writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length })
      .end(completion);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = streamEvents(model);
  if (!model.endsWith(pacedModelSuffix)) {
    response.end(events.join(''));
    return;
  }
  let next = 0;
  const sendNext = (): void => {
    if (response.destroyed) return;
    const event = events[next++] as string;
    if (next === events.length) {
      response.end(event);
      return;
    }
    response.write(event);
    setTimeout(sendNext, pacedIntervalMs);
  };
  sendNext();
}

function chatCompletion(model: string): object {
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created,
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: words().join('') }, logprobs: null, finish_reason: 'stop' },
    ],
    usage,
  };
}

/** 22 `chat.completion.chunk` events (20 content words, the finish reason, then usage), the last followed by [DONE]. */
function streamEvents(model: string): string[] {
  const event = (payload: object) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created, model, ...payload })}\n\n`;
  const choice = (delta: object, finishReason: string | null) => ({
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const events = words().map((word, index) =>
    event(choice(index === 0 ? { role: 'assistant', content: word } : { content: word }, null)),
  );
  events.push(event(choice({}, 'stop')));
  events.push(`${event({ choices: [], usage })}data: [DONE]\n\n`);
  return events;
}

/** `word1`, ` word2`, … ` word20`: the content, one word per content event. */
function words(): string[] {
  return Array.from({ length: contentEventCount }, (_, index) => `${index === 0 ? '' : ' '}word${index + 1}`);
}
