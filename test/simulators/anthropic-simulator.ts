// A loopback simulator of Anthropic's API (`POST /v1/messages` with any query such as `?beta=true`,
// `POST /v1/messages/count_tokens`, `GET /v1/models[/{id}]`), validating requests as Anthropic does.
// Model names pick misbehaviour: sim-error-<status> (529 = overloaded), sim-broken-stream, sim-stream-error-event,
// sim-broken-before-first-event, sim-hang; a name containing `cache` reports cache reads. Other models keep a prompt
// cache of the prefixes up to `cache_control` breakpoints (AnthropicSimulatorPromptCache), per simulator.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { vendorBehaviourForModel } from './anthropic-simulator-behaviour.js';
import { AnthropicSimulatedError, anthropicStatusError } from './anthropic-simulator-errors.js';
import { findAnthropicModel, listAnthropicModels } from './anthropic-simulator-models.js';
import { AnthropicSimulatorPromptCache, anthropicMinimumCacheableTokens } from './anthropic-simulator-prompt-cache.js';
import {
  countAnthropicBlockTokens,
  countAnthropicPromptTokens,
  createAnthropicReply,
} from './anthropic-simulator-reply.js';
import { sendAnthropicEventStream } from './anthropic-simulator-stream.js';
import { betasOf, validateAnthropicRequest } from './anthropic-simulator-validation.js';
import type { RecordedRequest } from './openai-simulator.js';
import { ClientConnection } from './openai-simulator-connection.js';
import { randomIdentifier } from './openai-simulator-text.js';

/** A running simulator. */
export interface AnthropicSimulator {
  /** base URL including `/v1`, e.g. `http://127.0.0.1:PORT/v1` (a channel's base URL) */
  url: string;
  /** every request received, in order, with its headers (`anthropic-version`, `anthropic-beta`) and query (`beta=true`) */
  requests: RecordedRequest[];
  /** requests whose client connection closed before the response finished */
  abortedRequestCount(): number;
  /** clears the recorded requests and the aborted counter */
  reset(): void;
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface AnthropicSimulatorOptions {
  /** the key the gateway must send: in `x-api-key` for 2023-06-01, as a bearer token for 2026-10-21 */
  apiKey: string;
  /** wait before each content event; default 0 */
  streamChunkDelayMs?: number;
  /** the shortest prefix the prompt cache writes, in the simulator's tokens (words); default Anthropic's 1024 */
  minimumCacheableTokens?: number;
}

/** Starts the simulator on 127.0.0.1 and a free port. */
export async function startAnthropicSimulator(options: AnthropicSimulatorOptions): Promise<AnthropicSimulator> {
  const requests: RecordedRequest[] = [];
  let abortedCount = 0;
  const promptCache = new AnthropicSimulatorPromptCache(
    options.minimumCacheableTokens ?? anthropicMinimumCacheableTokens,
    countAnthropicBlockTokens,
  );
  const server = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true });
  /** Records the request, checks version and key, answers errors in Anthropic's shape. */
  const route =
    (handler: (request: FastifyRequest, reply: FastifyReply, apiVersion: string) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const [path = '', query] = request.url.split('?', 2);
      requests.push({
        method: request.method,
        path,
        headers: { ...request.headers },
        body: request.body,
        ...(query === undefined ? {} : { query }),
      });
      reply.header('request-id', `req_${randomIdentifier()}`);
      try {
        return await handler(request, reply, checkHeaders(request, options.apiKey));
      } catch (error) {
        if (error instanceof AnthropicSimulatedError)
          return reply.code(error.status).headers(error.headers).send(error.toBody());
        throw error;
      }
    };
  server.post(
    '/v1/messages',
    route((request, reply, apiVersion) => {
      const connection = new ClientConnection(reply.raw, () => abortedCount++);
      return answerMessages(request, reply, connection, apiVersion, options, promptCache);
    }),
  );
  server.post(
    '/v1/messages/count_tokens',
    route(async (request, _reply, apiVersion) => {
      const validated = validateAnthropicRequest(request.body, apiVersion, {
        purpose: 'count',
        betas: betasOf(request.headers['anthropic-beta']),
      });
      return { input_tokens: countAnthropicPromptTokens(validated) };
    }),
  );
  server.get(
    '/v1/models',
    route(async (request) => listAnthropicModels(request.query as Record<string, unknown>)),
  );
  server.get(
    '/v1/models/:id',
    route(async (request) => findAnthropicModel((request.params as { id: string }).id)),
  );
  server.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(new AnthropicSimulatedError(404, 'Not found').toBody()),
  );
  server.setErrorHandler((error: Error, _request, reply) => {
    void reply
      .code(400)
      .send(new AnthropicSimulatedError(400, `The request body is not valid JSON: ${error.message}`).toBody());
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    abortedRequestCount: () => abortedCount,
    reset: () => {
      requests.length = 0;
      abortedCount = 0;
    },
    close: () => server.close(),
  };
}

async function answerMessages(
  request: FastifyRequest,
  reply: FastifyReply,
  connection: ClientConnection,
  apiVersion: string,
  options: AnthropicSimulatorOptions,
  promptCache: AnthropicSimulatorPromptCache,
): Promise<FastifyReply | undefined> {
  const validated = validateAnthropicRequest(request.body, apiVersion, {
    betas: betasOf(request.headers['anthropic-beta']),
  });
  const behaviour = vendorBehaviourForModel(validated.model);
  if (behaviour.kind === 'error') throw anthropicStatusError(behaviour.status);
  if (behaviour.kind === 'hang') {
    reply.hijack();
    return undefined;
  }
  const answer = createAnthropicReply(validated, promptCache);
  const messageId = `msg_sim_${randomIdentifier()}`;
  // A paced model answering without streaming takes as long as its stream would.
  if (behaviour.kind === 'paced' && !validated.stream) {
    await connection.wait(behaviour.chunkCount * behaviour.intervalMs);
    if (!connection.isOpen) return reply.hijack();
  }
  if (validated.stream) {
    reply.hijack();
    await sendAnthropicEventStream({
      response: reply.raw,
      connection,
      reply: answer,
      messageId,
      model: validated.model,
      behaviour,
      chunkDelayMs: options.streamChunkDelayMs ?? 0,
    });
    return undefined;
  }
  return reply.send({
    id: messageId,
    type: 'message',
    role: 'assistant',
    model: validated.model,
    container: null,
    stop_details: null,
    ...answer,
    usage: { ...answer.usage, service_tier: 'standard' },
  });
}

/** Checks the version header and the key where that version expects it; returns the version. */
function checkHeaders(request: FastifyRequest, apiKey: string): string {
  const version = request.headers['anthropic-version'];
  if (typeof version !== 'string' || version === '')
    throw new AnthropicSimulatedError(400, 'anthropic-version: header is required');
  if (version !== '2023-06-01' && version !== '2026-10-21')
    throw new AnthropicSimulatedError(400, `anthropic-version: unknown version '${version}'`);
  const presented = version === '2026-10-21' ? request.headers.authorization : request.headers['x-api-key'];
  const expected = version === '2026-10-21' ? `Bearer ${apiKey}` : apiKey;
  if (presented !== expected)
    throw new AnthropicSimulatedError(401, version === '2026-10-21' ? 'invalid bearer token' : 'invalid x-api-key');
  return version;
}
