// A loopback simulator of the Gemini API (`/v1beta/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`,
// `:batchEmbedContents`), validating requests as Google does. Model names pick misbehaviour like the Anthropic
// simulator's; a name containing `cache` reports cached tokens, one containing `thinking` reports thoughts and
// attaches thought signatures to function calls, which must come back on replayed calls.
import { answerGeminiSpeech, asksForAudio } from './gemini-simulator-speech.js';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { vendorBehaviourForModel } from './anthropic-simulator-behaviour.js';
import { answerGeminiEmbeddings } from './gemini-simulator-embeddings.js';
import { GeminiSimulatedError, geminiStatusError } from './gemini-simulator-errors.js';
import { createGeminiReply, thoughtSignatureFor } from './gemini-simulator-reply.js';
import { sendGeminiEventStream } from './gemini-simulator-stream.js';
import { validateGeminiRequest } from './gemini-simulator-validation.js';
import type { RecordedRequest } from './openai-simulator.js';
import { ClientConnection } from './openai-simulator-connection.js';
import { randomIdentifier } from './openai-simulator-text.js';

/** A running simulator. */
export interface GeminiSimulator {
  /** base URL including `/v1beta` (a channel's base URL) */
  url: string;
  requests: RecordedRequest[];
  abortedRequestCount(): number;
  reset(): void;
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface GeminiSimulatorOptions {
  /** the key the gateway must send in `x-goog-api-key` */
  apiKey: string;
  /** wait before each streamed chunk; default 0 */
  streamChunkDelayMs?: number;
}

const modelActionPattern = /^([^:]+):(generateContent|streamGenerateContent|batchEmbedContents)$/;

/** Starts the simulator on 127.0.0.1 and a free port. */
export async function startGeminiSimulator(options: GeminiSimulatorOptions): Promise<GeminiSimulator> {
  const requests: RecordedRequest[] = [];
  let abortedCount = 0;
  const server = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true });
  server.post('/v1beta/models/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    requests.push({ method: request.method, path, headers: { ...request.headers }, body: request.body });
    const connection = new ClientConnection(reply.raw, () => abortedCount++);
    try {
      return await answer(request, reply, connection, options);
    } catch (error) {
      if (error instanceof GeminiSimulatedError) return reply.code(error.status).send(error.toBody());
      throw error;
    }
  });
  server.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(new GeminiSimulatedError(404, 'Requested entity was not found.').toBody()),
  );
  server.setErrorHandler((error: Error, _request, reply) => {
    void reply
      .code(400)
      .send(new GeminiSimulatedError(400, `Invalid JSON payload received. ${error.message}`).toBody());
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1beta`,
    requests,
    abortedRequestCount: () => abortedCount,
    reset: () => {
      requests.length = 0;
      abortedCount = 0;
    },
    close: () => server.close(),
  };
}

async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  connection: ClientConnection,
  options: GeminiSimulatorOptions,
): Promise<FastifyReply | undefined> {
  if (request.headers['x-goog-api-key'] !== options.apiKey) {
    throw new GeminiSimulatedError(400, 'API key not valid. Please pass a valid API key.', ['API_KEY_INVALID']);
  }
  const match = modelActionPattern.exec(decodeURIComponent((request.params as { '*': string })['*']));
  if (!match) throw new GeminiSimulatedError(404, 'Requested entity was not found.');
  const model = match[1] as string;
  const action = match[2] as string;
  const behaviour = vendorBehaviourForModel(model);
  if (behaviour.kind === 'error') throw geminiStatusError(behaviour.status);
  if (behaviour.kind === 'hang') {
    reply.hijack();
    return undefined;
  }
  if (action === 'batchEmbedContents') return reply.send(answerGeminiEmbeddings(request.body, model));
  const stream = action === 'streamGenerateContent';
  if (stream && (request.query as { alt?: string }).alt !== 'sse') throw geminiInvalidSseQuery();
  const validated = validateGeminiRequest(request.body, model.includes('thinking') ? thoughtSignatureFor : undefined);
  if (asksForAudio(validated)) {
    if (stream) throw new GeminiSimulatedError(400, 'This simulator answers TTS with generateContent only.');
    return reply.send(answerGeminiSpeech(validated, model));
  }
  const generated = createGeminiReply(validated, model);
  const responseId = `sim${randomIdentifier()}`;
  if (stream) {
    reply.hijack();
    await sendGeminiEventStream({
      response: reply.raw,
      connection,
      reply: generated,
      responseId,
      model,
      behaviour,
      chunkDelayMs: options.streamChunkDelayMs ?? 0,
    });
    return undefined;
  }
  const candidateCount =
    typeof validated.generationConfig.candidateCount === 'number' ? validated.generationConfig.candidateCount : 1;
  const candidates = Array.from({ length: candidateCount }, (_, index) => ({
    content: { role: 'model', parts: generated.parts },
    finishReason: generated.finishReason,
    index,
  }));
  return reply.send({ candidates, usageMetadata: generated.usageMetadata, modelVersion: model, responseId });
}

function geminiInvalidSseQuery(): GeminiSimulatedError {
  // The gateway relays SSE only; the JSON-array stream without alt=sse would not parse.
  return new GeminiSimulatedError(400, 'This simulator streams only with alt=sse.');
}
