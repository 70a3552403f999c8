// Child process: the upstream of the wrk comparison, a minimal `node:http` server that answers
// POST /v1/chat/completions with a fixed chat completion, or with a stream of 22 chunk events when the body asks for
// `"stream":true`. Streams are sent at once (burst) unless the model name ends in `-paced`: then one event every 5 ms.
// Kept far cheaper than the paths it serves, so the direct path shows what the load generator and loopback allow.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerControlMessages, failStartup, sendToHarness } from './answer-control-messages.js';

/** Suffix of a model name that makes streams paced. */
const pacedSuffix = '-paced';
const pacedIntervalMs = 5;
const contentChunkCount = 20;
const created = 1_764_000_000;
const usage = { prompt_tokens: 96, completion_tokens: contentChunkCount, total_tokens: 96 + contentChunkCount };
const streamPattern = /"stream"\s*:\s*true/;
const modelPattern = /"model"\s*:\s*"([^"]*)"/;

try {
  const server = http.createServer({ noDelay: true, keepAliveTimeout: 75_000 }, (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(Buffer.concat(chunks).toString('utf8'), response));
  });
  server.maxRequestsPerSocket = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  answerControlMessages(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  sendToHarness({ type: 'ready', url: `http://127.0.0.1:${port}/v1`, details: { port: String(port) } });
} catch (error) {
  failStartup(error);
}

function answer(body: string, response: http.ServerResponse): void {
  const model = modelPattern.exec(body)?.[1] ?? 'unknown';
  if (!streamPattern.test(body)) {
    const completion = Buffer.from(JSON.stringify(chatCompletion(model)));
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length }).end(completion);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = streamEvents(model);
  if (!model.endsWith(pacedSuffix)) {
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
    choices: [{ index: 0, message: { role: 'assistant', content: words(contentChunkCount).join('') }, logprobs: null, finish_reason: 'stop' }],
    usage,
  };
}

/** 22 `chat.completion.chunk` events (20 content words, the finish reason, then usage), the last one followed by [DONE]. */
function streamEvents(model: string): string[] {
  const chunk = (delta: object, finishReason: string | null, withUsage = false) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created, model, choices: withUsage ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(withUsage ? { usage } : {}) })}\n\n`;
  const events = words(contentChunkCount).map((word, index) => chunk(index === 0 ? { role: 'assistant', content: word } : { content: word }, null));
  events.push(chunk({}, 'stop'));
  events.push(`${chunk({}, null, true)}data: [DONE]\n\n`);
  return events;
}

function words(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${index === 0 ? '' : ' '}word${index + 1}`);
}
