// A loopback simulator of Google Vertex AI: the OAuth2 token endpoint (JWT bearer grant, RS256-verified) and the
// model endpoints under `/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{action}`
// (plus express mode's `/v1/publishers/google/models/...` with an API key). Gemini's generateContent and
// streamGenerateContent are answered by a Gemini simulator behind it, and Claude's rawPredict and streamRawPredict by
// an Anthropic simulator, after the Vertex-only checks (bearer token, project, location, `anthropic_version`, no
// `model` in Claude's body); `:predict` answers text embeddings itself. Errors are Google-shaped.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { request as sendRequest } from 'undici';
import { startAnthropicSimulator } from './anthropic-simulator.js';
import { GeminiSimulatedError } from './gemini-simulator-errors.js';
import { startGeminiSimulator } from './gemini-simulator.js';
import type { RecordedRequest } from './openai-simulator.js';
import { answerVertexEmbeddings } from './vertex-simulator-embeddings.js';
import { TokenEndpointError, VertexTokenIssuer } from './vertex-simulator-token-endpoint.js';

/** A running simulator. */
export interface VertexSimulator {
  /** base URL including `/v1` (a channel's base URL) */
  url: string;
  /** the service-account JSON key a channel's secret holds; its `token_uri` is this simulator's token endpoint */
  serviceAccountKey: string;
  /** the API key express mode accepts */
  apiKey: string;
  project: string;
  location: string;
  /** model requests (not token exchanges), in order */
  requests: RecordedRequest[];
  tokens: VertexTokenIssuer;
  abortedRequestCount(): number;
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface VertexSimulatorOptions {
  /** seconds an access token lives; default 3599 as Google's */
  tokenLifetimeSeconds?: number;
}

const innerApiKey = 'inner-simulator-key';
const vertexAnthropicVersion = 'vertex-2023-10-16';
const modelActionPattern = /^([^:]+):(generateContent|streamGenerateContent|predict|rawPredict|streamRawPredict)$/;

/** Starts the simulator (and the Gemini and Anthropic simulators behind it) on 127.0.0.1 and free ports. */
export async function startVertexSimulator(options: VertexSimulatorOptions = {}): Promise<VertexSimulator> {
  const gemini = await startGeminiSimulator({ apiKey: innerApiKey });
  const anthropic = await startAnthropicSimulator({ apiKey: innerApiKey });
  const project = 'sim-project';
  const location = 'us-central1';
  const apiKey = `AQ.sim-${randomUUID()}`;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account = {
    clientEmail: `gateway@${project}.iam.gserviceaccount.com`,
    privateKeyId: randomUUID().replaceAll('-', ''),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
  const tokens = new VertexTokenIssuer(account, options.tokenLifetimeSeconds ?? 3599);
  const requests: RecordedRequest[] = [];
  const server = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true });
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  server.post('/token', async (request, reply) => {
    try {
      return tokens.exchange(typeof request.body === 'string' ? request.body : '');
    } catch (error) {
      if (error instanceof TokenEndpointError)
        return reply.code(error.status).send({ error: error.error, error_description: error.description });
      throw error;
    }
  });
  const handleModelCall = async (request: FastifyRequest, reply: FastifyReply, expressMode: boolean) => {
    const [path = '', query] = request.url.split('?', 2);
    requests.push({
      method: request.method,
      path,
      headers: { ...request.headers },
      body: request.body,
      ...(query === undefined ? {} : { query }),
    });
    const params = request.params as { project?: string; location?: string; publisher: string; modelAction: string };
    try {
      if (expressMode) {
        if (request.headers['x-goog-api-key'] !== apiKey)
          throw new GeminiSimulatedError(400, 'API key not valid. Please pass a valid API key.', ['API_KEY_INVALID']);
      } else {
        requireBearerToken(request, tokens);
        if (params.project !== project)
          throw new GeminiSimulatedError(403, `Permission denied on resource project ${params.project}.`);
        if (params.location !== location && params.location !== 'global')
          throw new GeminiSimulatedError(404, `Location ${params.location} is not served.`);
      }
      const match = modelActionPattern.exec(decodeURIComponent(params.modelAction));
      if (!match) throw new GeminiSimulatedError(404, 'Requested entity was not found.');
      const [, model = '', action = ''] = match;
      if (params.publisher === 'google') {
        if (action === 'predict') return reply.send(answerVertexEmbeddings(request.body));
        if (action !== 'generateContent' && action !== 'streamGenerateContent')
          throw new GeminiSimulatedError(400, `Publisher google has no ${action}.`);
        return await relay(request, reply, `${gemini.url}/models/${encodeURIComponent(model)}:${action}`, query, {
          'x-goog-api-key': innerApiKey,
        });
      }
      if (params.publisher === 'anthropic' && !expressMode) {
        if (action !== 'rawPredict' && action !== 'streamRawPredict')
          throw new GeminiSimulatedError(400, `Publisher anthropic has no ${action}.`);
        const body = claudeBodyOf(request.body, action === 'streamRawPredict');
        return await relay(
          request,
          reply,
          `${anthropic.url}/messages`,
          undefined,
          { 'x-api-key': innerApiKey, 'anthropic-version': '2023-06-01', ...betaHeaderOf(request) },
          { ...body, model },
        );
      }
      throw new GeminiSimulatedError(404, `Publisher ${params.publisher} is not served.`);
    } catch (error) {
      if (error instanceof GeminiSimulatedError) return reply.code(error.status).send(error.toBody());
      throw error;
    }
  };
  server.post('/v1/projects/:project/locations/:location/publishers/:publisher/models/:modelAction', (request, reply) =>
    handleModelCall(request, reply, false),
  );
  server.post('/v1/publishers/:publisher/models/:modelAction', (request, reply) =>
    handleModelCall(request, reply, true),
  );
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
  const origin = `http://127.0.0.1:${port}`;
  const serviceAccountKey = JSON.stringify({
    type: 'service_account',
    project_id: project,
    private_key_id: account.privateKeyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: account.clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: `${origin}/token`,
    universe_domain: 'googleapis.com',
  });
  return {
    url: `${origin}/v1`,
    serviceAccountKey,
    apiKey,
    project,
    location,
    requests,
    tokens,
    abortedRequestCount: () => gemini.abortedRequestCount() + anthropic.abortedRequestCount(),
    close: async () => {
      await server.close();
      await Promise.all([gemini.close(), anthropic.close()]);
    },
  };
}

function requireBearerToken(request: FastifyRequest, tokens: VertexTokenIssuer): void {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!tokens.accepts(token))
    throw new GeminiSimulatedError(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      ['ACCESS_TOKEN_EXPIRED'],
    );
}

/** Claude's body on Vertex: `anthropic_version: vertex-2023-10-16`, no `model` (it is in the path). */
function claudeBodyOf(body: unknown, streamed: boolean): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new GeminiSimulatedError(400, 'The request body must be a JSON object.');
  const { anthropic_version: version, ...rest } = body as Record<string, unknown>;
  if (version !== vertexAnthropicVersion)
    throw new GeminiSimulatedError(400, `anthropic_version must be ${vertexAnthropicVersion}.`);
  if ('model' in rest) throw new GeminiSimulatedError(400, 'model: Extra inputs are not permitted');
  if (streamed !== (rest.stream === true))
    throw new GeminiSimulatedError(400, 'streamRawPredict takes `stream: true`; rawPredict does not.');
  return rest;
}

function betaHeaderOf(request: FastifyRequest): Record<string, string> {
  const beta = request.headers['anthropic-beta'];
  return typeof beta === 'string' ? { 'anthropic-beta': beta } : {};
}

/** Sends the call to the simulator behind and streams its answer back as it comes (status, type, retry-after). */
async function relay(
  request: FastifyRequest,
  reply: FastifyReply,
  url: string,
  query: string | undefined,
  headers: Record<string, string>,
  body: unknown = request.body,
): Promise<FastifyReply> {
  const aborted = new AbortController();
  // The response's close (not the request's, which closes once its body is read) means the gateway went away.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) aborted.abort();
  });
  const answer = await sendRequest(query === undefined ? url : `${url}?${query}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: aborted.signal,
  });
  for (const name of ['content-type', 'retry-after'] as const) {
    const value = answer.headers[name];
    if (typeof value === 'string') reply.header(name, value);
  }
  answer.body.on('error', () => reply.raw.destroy());
  return reply.code(answer.statusCode).send(answer.body);
}
