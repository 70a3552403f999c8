// A loopback simulator of the OpenAI HTTP API: the upstream vendor of the gateway's end-to-end tests and benchmark.
// Special model names (see openai-simulator-behaviour.ts) make it fail, stall, pace or break streams on purpose.
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { handleTranscription } from './openai-simulator-audio.js';
import { handleModeration, handleSpeech } from './openai-simulator-speech.js';
import { behaviourForModel, readModelDelay, type ModelBehaviour } from './openai-simulator-behaviour.js';
import { handleChatCompletion } from './openai-simulator-chat.js';
import { handleCompletion } from './openai-simulator-completions.js';
import { ClientConnection } from './openai-simulator-connection.js';
import type { EndpointAnswer, EndpointHandler, EndpointInput } from './openai-simulator-endpoint.js';
import { handleEmbeddings } from './openai-simulator-embeddings.js';
import { invalidApiKeyError, modelStatusError, SimulatedError } from './openai-simulator-errors.js';
import { handleImageEdit, handleImageGeneration } from './openai-simulator-images.js';
import { modelList, modelObject } from './openai-simulator-models.js';
import { readMultipartForm } from './openai-simulator-multipart.js';
import {
  createResponseHandler,
  deleteResponse,
  listInputItems,
  retrieveResponse,
} from './openai-simulator-responses.js';
import { ResponsesStore } from './openai-simulator-responses-store.js';
import { eventStreamHeaders, sendEventStream, type StreamPacing } from './openai-simulator-stream.js';
import { randomIdentifier } from './openai-simulator-text.js';
import { requireObjectBody } from './openai-simulator-validation.js';

/** One request the simulator received. */
export interface RecordedRequest {
  /** HTTP method, e.g. `POST` */
  method: string;
  /** URL path without the query string, e.g. `/v1/chat/completions` */
  path: string;
  /** the query string without `?` (e.g. `beta=true`), when the URL had one */
  query?: string;
  /** the request headers as received (lower-case names) */
  headers: Record<string, string | string[] | undefined>;
  /** parsed JSON, or for multipart an object of fields with files as {filename, contentType, size}; undefined if none */
  body: unknown;
}

/** A running simulator. */
export interface OpenAiSimulator {
  /** base URL including `/v1`, e.g. `http://127.0.0.1:PORT/v1` */
  url: string;
  /** the port it listens on */
  port: number;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** ids of the Responses API responses it keeps (`store` true), oldest first; `reset()` does not clear them */
  storedResponseIds(): string[];
  /** requests whose client connection closed before the response finished */
  abortedRequestCount(): number;
  /** clears the recorded requests and the aborted counter */
  reset(): void;
  /** stops listening and destroys open connections (hanging requests included) */
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface OpenAiSimulatorOptions {
  /** port to listen on; 0 (default) picks a free one */
  port?: number;
  /** if set, requests without `Authorization: Bearer <apiKey>` get 401 invalid_api_key */
  apiKey?: string;
  /** wait before each streamed content chunk, for every model; default 0 */
  streamChunkDelayMs?: number;
  /** record requests in `requests` (default true); long benchmarks may turn it off to save memory */
  recordRequests?: boolean;
}

/** Per-request bookkeeping, created when the request arrives. */
interface RequestContext {
  record: RecordedRequest;
  connection: ClientConnection;
}

/** How a route's body arrives. */
type BodyEncoding = 'json' | 'multipart';

const bodyLimitBytes = 64 * 1024 * 1024;
const brokenStreamContentChunks = 2;

/** Starts a simulator on 127.0.0.1. */
export async function startOpenAiSimulator(options: OpenAiSimulatorOptions = {}): Promise<OpenAiSimulator> {
  const requests: RecordedRequest[] = [];
  let abortedCount = 0;
  const contexts = new WeakMap<FastifyRequest, RequestContext>();
  const server = Fastify({ logger: false, bodyLimit: bodyLimitBytes, forceCloseConnections: true });
  await server.register(multipart, { limits: { fileSize: bodyLimitBytes, fieldSize: bodyLimitBytes, files: 100 } });

  server.addHook('onRequest', (request, reply, done) => {
    const [path = '', query] = request.url.split('?', 2);
    const record: RecordedRequest = {
      method: request.method,
      path,
      headers: { ...request.headers },
      body: undefined,
      ...(query === undefined ? {} : { query }),
    };
    if (options.recordRequests !== false) requests.push(record);
    contexts.set(request, { record, connection: new ClientConnection(reply.raw, () => abortedCount++) });
    reply.raw.setHeader('x-request-id', `req_${randomIdentifier()}`);
    done();
  });
  const contextOf = (request: FastifyRequest): RequestContext => contexts.get(request) as RequestContext;
  const responsesStore = new ResponsesStore();
  registerRoutes(server, options, contextOf);
  registerResponsesRoutes(server, options, contextOf, responsesStore);
  server.setErrorHandler(answerUnexpectedError);
  server.setNotFoundHandler((request, reply) => {
    sendError(reply, new SimulatedError(404, `Invalid URL (${request.method} ${request.url})`));
  });

  await server.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    storedResponseIds: () => responsesStore.ids(),
    abortedRequestCount: () => abortedCount,
    reset: () => {
      requests.length = 0;
      abortedCount = 0;
    },
    close: () => server.close(),
  };
}

function registerRoutes(
  server: FastifyInstance,
  options: OpenAiSimulatorOptions,
  contextOf: (request: FastifyRequest) => RequestContext,
): void {
  const post = (path: string, handler: EndpointHandler, encoding: BodyEncoding) =>
    server.post(path, (request, reply) =>
      answerEndpoint(request, reply, { handler, encoding, options, context: contextOf(request) }),
    );
  post('/v1/chat/completions', handleChatCompletion, 'json');
  post('/v1/completions', handleCompletion, 'json');
  post('/v1/embeddings', handleEmbeddings, 'json');
  post('/v1/images/generations', handleImageGeneration, 'json');
  post('/v1/images/edits', handleImageEdit, 'multipart');
  post('/v1/audio/transcriptions', handleTranscription, 'multipart');
  post('/v1/audio/speech', handleSpeech, 'json');
  post('/v1/moderations', handleModeration, 'json');
  server.get('/v1/models', (request, reply) => answerLookup(request, reply, options, () => modelList()));
  server.get('/v1/models/*', (request, reply) =>
    answerLookup(request, reply, options, () => modelObject((request.params as { '*': string })['*'])),
  );
}

/** The Responses API: create through the common POST pipeline, then read, delete and list what was stored. */
function registerResponsesRoutes(
  server: FastifyInstance,
  options: OpenAiSimulatorOptions,
  contextOf: (request: FastifyRequest) => RequestContext,
  store: ResponsesStore,
): void {
  const handler = createResponseHandler(store);
  server.post('/v1/responses', (request, reply) =>
    answerEndpoint(request, reply, { handler, encoding: 'json', options, context: contextOf(request) }),
  );
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  server.get('/v1/responses/:id', (request, reply) =>
    answerLookup(request, reply, options, () => retrieveResponse(store, idOf(request))),
  );
  server.delete('/v1/responses/:id', (request, reply) =>
    answerLookup(request, reply, options, () => deleteResponse(store, idOf(request))),
  );
  server.get('/v1/responses/:id/input_items', (request, reply) =>
    answerLookup(request, reply, options, () =>
      listInputItems(store, idOf(request), request.query as Record<string, unknown>),
    ),
  );
}

/** The pipeline of every POST endpoint: read and record the body, check the key, apply the model's behaviour, answer. */
async function answerEndpoint(
  request: FastifyRequest,
  reply: FastifyReply,
  route: { handler: EndpointHandler; encoding: BodyEncoding; options: OpenAiSimulatorOptions; context: RequestContext },
): Promise<FastifyReply | undefined> {
  const { context, options } = route;
  try {
    const input = await readInput(request, route.encoding);
    context.record.body = input.recordedBody;
    checkAuthorization(request, options.apiKey);
    const body = requireObjectBody(input.recordedBody);
    const delay = readModelDelay(body.model);
    if (delay) {
      await context.connection.wait(delay.delayMs);
      if (!context.connection.isOpen) return reply.hijack();
    }
    const behaviour = behaviourForModel(delay?.model ?? body.model);
    if (behaviour.kind === 'error')
      throw modelStatusError(behaviour.status, String(body.model), behaviour.retryAfterSeconds);
    if (behaviour.kind === 'hang') {
      // Never answer: the connection stays open until the client gives up (counted as aborted) or close().
      reply.hijack();
      return undefined;
    }
    const answer = route.handler({ body, files: input.files, behaviour });
    return await sendAnswer(reply, context.connection, answer, behaviour, options);
  } catch (error) {
    if (error instanceof SimulatedError) return sendError(reply, error);
    throw error;
  }
}

async function readInput(
  request: FastifyRequest,
  encoding: BodyEncoding,
): Promise<{ recordedBody: unknown; files: EndpointInput['files'] }> {
  if (encoding === 'json') return { recordedBody: request.body, files: new Map() };
  const form = await readMultipartForm(request);
  return { recordedBody: form.body, files: form.files };
}

/** The pipeline of every GET and DELETE: check the key, answer JSON or an OpenAI error. */
function answerLookup(
  request: FastifyRequest,
  reply: FastifyReply,
  options: OpenAiSimulatorOptions,
  answer: () => unknown,
): FastifyReply {
  try {
    checkAuthorization(request, options.apiKey);
    return reply.send(answer());
  } catch (error) {
    if (error instanceof SimulatedError) return sendError(reply, error);
    throw error;
  }
}

function checkAuthorization(request: FastifyRequest, apiKey: string | undefined): void {
  if (apiKey !== undefined && request.headers.authorization !== `Bearer ${apiKey}`) throw invalidApiKeyError();
}

async function sendAnswer(
  reply: FastifyReply,
  connection: ClientConnection,
  answer: EndpointAnswer,
  behaviour: ModelBehaviour,
  options: OpenAiSimulatorOptions,
): Promise<FastifyReply | undefined> {
  if (answer.kind === 'stream') {
    reply.hijack();
    if (behaviour.kind === 'broken-before-first-event') {
      reply.raw.writeHead(200, eventStreamHeaders);
      reply.raw.flushHeaders();
      connection.breakOnPurpose();
      return undefined;
    }
    await sendEventStream(reply.raw, connection, answer.plan, streamPacing(behaviour, options));
    return undefined;
  }
  const payload = answer.kind === 'json' ? JSON.stringify(answer.body) : answer.body;
  const contentType = answer.kind === 'json' ? 'application/json' : answer.contentType;
  // A speech answer cut off mid-way: its first half of bytes, then a destroyed socket.
  if (behaviour.kind === 'broken-stream' && typeof payload !== 'string') {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': contentType });
    await new Promise<void>((resolve) => reply.raw.write(payload.subarray(0, payload.length >> 1), () => resolve()));
    connection.breakOnPurpose();
    return undefined;
  }
  if (behaviour.kind === 'broken-stream' && typeof payload === 'string')
    return sendBrokenBody(reply, connection, payload, contentType);
  // A paced model answering without streaming takes as long as its stream would.
  if (behaviour.kind === 'paced') await connection.wait(behaviour.chunkCount * behaviour.intervalMs);
  if (!connection.isOpen) {
    reply.hijack();
    return undefined;
  }
  return reply.type(contentType).send(payload);
}

function streamPacing(behaviour: ModelBehaviour, options: OpenAiSimulatorOptions): StreamPacing {
  const defaultDelay = options.streamChunkDelayMs ?? 0;
  switch (behaviour.kind) {
    case 'slow-stream':
      return { chunkDelayMs: Math.max(behaviour.chunkDelayMs, defaultDelay), breakAfterContentChunks: null };
    case 'paced':
      return { chunkDelayMs: behaviour.intervalMs, breakAfterContentChunks: null, stampSendTime: true };
    case 'broken-stream':
      return { chunkDelayMs: defaultDelay, breakAfterContentChunks: brokenStreamContentChunks };
    case 'stall':
      return {
        chunkDelayMs: defaultDelay,
        breakAfterContentChunks: null,
        stallAfterContentChunks: behaviour.contentChunks,
      };
    case 'stream-error-event':
      return {
        chunkDelayMs: defaultDelay,
        breakAfterContentChunks: brokenStreamContentChunks,
        breakWith: 'error-event',
      };
    default:
      return { chunkDelayMs: defaultDelay, breakAfterContentChunks: null };
  }
}

/** A non-streamed answer from `sim-broken-stream`: status 200, half the body, then a destroyed socket. */
async function sendBrokenBody(
  reply: FastifyReply,
  connection: ClientConnection,
  payload: string,
  contentType: string,
): Promise<undefined> {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': contentType });
  await connection.write(payload.slice(0, Math.ceil(payload.length / 2)), true);
  connection.breakOnPurpose();
  return undefined;
}

function sendError(reply: FastifyReply, error: SimulatedError): FastifyReply {
  return reply.code(error.status).headers(error.headers).send(error.toBody());
}

/** Framework errors (unparsable JSON, too-large bodies, bad multipart) answered in OpenAI's error shape. */
function answerUnexpectedError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  void sendError(reply, new SimulatedError(status, error.message, { type }));
}
