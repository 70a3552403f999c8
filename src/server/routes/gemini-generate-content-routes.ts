import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../core/gateway-error.js';
import { estimateCanonicalRequest } from '../../protocols/shared/estimate-canonical-request.js';
import { estimateEmbeddingRequest } from '../../protocols/openai-endpoints/estimate-embedding-request.js';
import { estimateGeminiRequest } from '../../protocols/gemini-generate-content/estimate-gemini-request.js';
import { createGeminiAnswerCodec } from '../../protocols/gemini-generate-content/gemini-answer-codec.js';
import { geminiChannelFilter } from '../../protocols/gemini-generate-content/gemini-channel-filter.js';
import {
  parseBatchEmbedContentsRequest,
  parseEmbedContentRequest,
  toGeminiEmbeddingAnswer,
  type GeminiEmbeddingRequest,
} from '../../protocols/gemini-generate-content/gemini-embedding-request.js';
import { parseGeminiModelAction } from '../../protocols/gemini-generate-content/gemini-model-path.js';
import { parseGeminiCountTokensRequest } from '../../protocols/gemini-generate-content/parse-gemini-count-tokens.js';
import { parseGeminiRequest } from '../../protocols/gemini-generate-content/parse-gemini-request.js';
import type { ReasoningSealer } from '../../protocols/shared/reasoning-sealer.js';
import { forwardMetered } from '../forward-metered.js';
import type { GatewayServices } from '../gateway-services.js';
import { createMessagesArtefactSealer } from '../messages-artefact-sealer.js';
import { resolveModel } from '../resolve-model.js';

/** Requests whose JSON answer is an embedding list to be written in Gemini's shape: true for batchEmbedContents. */
const embeddingAnswers = new WeakMap<FastifyRequest, boolean>();

/**
 * Gemini's own API (`@google/genai`, Gemini CLI) for every vendor: `POST /v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent` (`?alt=sse` for SSE, else a streamed JSON array), `:countTokens` (the gateway's estimate,
 * free), `:embedContent` and `:batchEmbedContents`. Generation is parsed into the canonical request and metered like
 * chat completions (the usage log's `chat.completions`: the same holds and prices); embeddings like `/v1/embeddings`.
 * Thought signatures are sealed with the Messages routes' key, so a signature from either opens on both.
 */
export function registerGeminiGenerateContentRoutes(app: FastifyInstance, services: GatewayServices): void {
  const sealer = createMessagesArtefactSealer(services.config);
  app.post(
    '/v1beta/models/*',
    {
      // The embedding list dispatch answers is written again in Gemini's shape (status 200 only: errors are Google's).
      onSend: (request, reply, payload, done) => {
        const batch = embeddingAnswers.get(request);
        if (batch === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
        done(null, toGeminiEmbeddingAnswer(payload, batch) ?? payload);
      },
    },
    async (request, reply) => {
      // The router has decoded the path; the model name may hold slashes, the method follows its last colon.
      const { modelId, method } = parseGeminiModelAction((request.params as { '*': string })['*']);
      switch (method) {
        case 'generateContent':
        case 'streamGenerateContent':
          await generateContent(request, reply, services, sealer, modelId, method === 'streamGenerateContent');
          return reply;
        case 'countTokens':
          return countTokens(request, services, sealer, modelId);
        case 'embedContent':
          await embed(request, reply, services, modelId, parseEmbedContentRequest(request.body), false);
          return reply;
        case 'batchEmbedContents':
          await embed(request, reply, services, modelId, parseBatchEmbedContentsRequest(request.body), true);
          return reply;
        default: {
          const unreachable: never = method;
          throw new Error(`Unhandled Gemini method ${String(unreachable)}`);
        }
      }
    },
  );
  const refuseTunedModels = async (): Promise<never> => {
    throw new GatewayError('not_found', 'Tuned models are not served by this gateway; name a model as models/<id>.');
  };
  app.post('/v1beta/tunedModels/*', refuseTunedModels);
  app.get('/v1beta/tunedModels/*', refuseTunedModels);
}

async function generateContent(
  request: FastifyRequest,
  reply: FastifyReply,
  services: GatewayServices,
  sealer: ReasoningSealer,
  modelId: string,
  stream: boolean,
): Promise<void> {
  const parsed = parseGeminiRequest(request.body, { modelId, stream, unsealArtefact: sealer.unseal });
  if (parsed.ignoredFields.length > 0)
    request.log.debug({ ignoredFields: parsed.ignoredFields }, 'generateContent fields accepted but not translated');
  const model = resolveModel(services.routing.current, request.principal, modelId, ['chat']);
  // Before any hold: a member no channel of the model honours is a 400, not a dispatch without channels.
  const acceptsChannel = geminiChannelFilter(parsed.request, services.routing.current.channelsFor(model.id));
  const query = request.query as Record<string, unknown>;
  const codec = createGeminiAnswerCodec({
    model: model.id,
    responseId: randomUUID().replaceAll('-', ''),
    sealArtefact: sealer.seal,
    includeThoughts: parsed.includeThoughts,
    streamFraming: query.alt === 'sse' ? 'sse' : 'json-array',
  });
  await forwardMetered({
    reply,
    services,
    request,
    model,
    endpoint: 'chat.completions',
    estimate: estimateGeminiRequest(parsed.request),
    stream,
    clientWantsUsage: false,
    kind: 'canonical',
    canonical: { request: parsed.request, codec },
    acceptsChannel,
    maxOutputTokens: model.maxOutputTokens,
  });
}

/** The gateway's own count (its token heuristics, as holds use them): free, and no vendor is called. */
function countTokens(
  request: FastifyRequest,
  services: GatewayServices,
  sealer: ReasoningSealer,
  modelId: string,
): { totalTokens: number } {
  const canonical = parseGeminiCountTokensRequest(request.body, { modelId, unsealArtefact: sealer.unseal });
  resolveModel(services.routing.current, request.principal, modelId, ['chat', 'embedding']);
  return { totalTokens: estimateCanonicalRequest(canonical).inputTokens };
}

async function embed(
  request: FastifyRequest,
  reply: FastifyReply,
  services: GatewayServices,
  modelId: string,
  embedding: GeminiEmbeddingRequest,
  batch: boolean,
): Promise<void> {
  const model = resolveModel(services.routing.current, request.principal, modelId, ['embedding']);
  const body = {
    model: model.id,
    input: embedding.input,
    encoding_format: 'float' as const,
    ...dimensionsOf(embedding),
  };
  embeddingAnswers.set(request, batch);
  await forwardMetered({
    reply,
    services,
    request,
    model,
    endpoint: 'embeddings',
    estimate: estimateEmbeddingRequest(body),
    kind: 'openai-wire',
    upstreamPath: '/embeddings',
    buildBody: (upstreamModelId) => JSON.stringify({ ...body, model: upstreamModelId }),
    stream: false,
    clientWantsUsage: false,
    translation: { kind: 'embedding', request: body },
  });
}

function dimensionsOf(embedding: GeminiEmbeddingRequest): { dimensions?: number } {
  return embedding.dimensions === undefined ? {} : { dimensions: embedding.dimensions };
}
