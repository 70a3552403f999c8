import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../gateway-services.js';
import { registerAudioSpeechRoute } from './audio-speech-route.js';
import { registerAudioTranscriptionsRoute } from './audio-transcriptions-route.js';
import { registerChatCompletionsRoute } from './chat-completions-route.js';
import { registerCompletionsRoute } from './completions-route.js';
import { registerEmbeddingsRoute } from './embeddings-route.js';
import { registerGeminiGenerateContentRoutes } from './gemini-generate-content-routes.js';
import { registerGeminiModelRoutes } from './gemini-model-routes.js';
import { registerImageRoutes } from './image-routes.js';
import { registerMessagesCountTokensRoute } from './messages-count-tokens-route.js';
import { registerMessagesRoute } from './messages-route.js';
import { registerModelRoutes } from './model-routes.js';
import { registerModerationsRoute } from './moderations-route.js';
import { registerResponsesCreateRoute } from './responses-create-route.js';
import { registerResponsesReadRoutes } from './responses-read-routes.js';
import { registerVideoRoutes } from './video-routes.js';

/** One method and path a route table entry serves. */
export interface ClientProtocolPath {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
}

/** One entry of the route table: a client protocol's paths and the registration of its route handlers. */
export interface ClientProtocolRoute {
  /** the protocol folder under src/protocols/ whose request schema, codecs and errors the handlers use */
  protocol: string;
  /** the paths the handlers answer (checked against the running app in test/architecture/route-table.test.ts) */
  paths: readonly ClientProtocolPath[];
  /** `multipart` entries are registered in the one scope that parses forms (its hooks cost every other request) */
  body: 'json' | 'multipart';
  /** registers the handlers in the given scope (the keyed one, or its form-parsing child for `multipart` entries) */
  register(scope: FastifyInstance, services: GatewayServices): void;
}

/**
 * The route table: every client path the keyed scope answers, mapped to its protocol's route handlers. A new client
 * protocol is its folder under src/protocols/ plus one entry here (see docs/adr/0022-a-client-protocol-is-one-folder.md).
 */
export const clientProtocolRoutes: readonly ClientProtocolRoute[] = [
  {
    protocol: 'openai-models',
    paths: [
      { method: 'GET', url: '/v1/models' },
      { method: 'GET', url: '/v1/models/*' },
    ],
    body: 'json',
    register: registerModelRoutes,
  },
  {
    protocol: 'openai-chat',
    paths: [{ method: 'POST', url: '/v1/chat/completions' }],
    body: 'json',
    register: registerChatCompletionsRoute,
  },
  {
    protocol: 'openai-endpoints',
    paths: [{ method: 'POST', url: '/v1/completions' }],
    body: 'json',
    register: registerCompletionsRoute,
  },
  {
    protocol: 'openai-endpoints',
    paths: [{ method: 'POST', url: '/v1/embeddings' }],
    body: 'json',
    register: registerEmbeddingsRoute,
  },
  {
    protocol: 'openai-endpoints',
    paths: [{ method: 'POST', url: '/v1/audio/speech' }],
    body: 'json',
    register: registerAudioSpeechRoute,
  },
  {
    protocol: 'openai-endpoints',
    paths: [{ method: 'POST', url: '/v1/moderations' }],
    body: 'json',
    register: registerModerationsRoute,
  },
  {
    protocol: 'anthropic-messages',
    paths: [{ method: 'POST', url: '/v1/messages' }],
    body: 'json',
    register: registerMessagesRoute,
  },
  {
    protocol: 'anthropic-messages',
    paths: [{ method: 'POST', url: '/v1/messages/count_tokens' }],
    body: 'json',
    register: registerMessagesCountTokensRoute,
  },
  {
    protocol: 'gemini-generate-content',
    paths: [
      { method: 'GET', url: '/v1beta/models' },
      { method: 'GET', url: '/v1beta/models/*' },
    ],
    body: 'json',
    register: registerGeminiModelRoutes,
  },
  {
    protocol: 'gemini-generate-content',
    paths: [
      { method: 'POST', url: '/v1beta/models/*' },
      { method: 'POST', url: '/v1beta/tunedModels/*' },
      { method: 'GET', url: '/v1beta/tunedModels/*' },
    ],
    body: 'json',
    register: registerGeminiGenerateContentRoutes,
  },
  {
    protocol: 'openai-responses',
    paths: [
      { method: 'POST', url: '/v1/responses' },
      { method: 'GET', url: '/v1/responses/:id' },
      { method: 'DELETE', url: '/v1/responses/:id' },
      { method: 'GET', url: '/v1/responses/:id/input_items' },
    ],
    body: 'json',
    // Stored responses need their store: without it the whole family is left out, not served half.
    register(scope, services) {
      if (!services.responses) return;
      registerResponsesCreateRoute(scope, services, services.responses);
      registerResponsesReadRoutes(scope, services.responses);
    },
  },
  {
    protocol: 'openai-endpoints',
    paths: [
      { method: 'POST', url: '/v1/images/generations' },
      { method: 'POST', url: '/v1/images/edits' },
    ],
    body: 'multipart',
    register: registerImageRoutes,
  },
  {
    protocol: 'openai-endpoints',
    paths: [{ method: 'POST', url: '/v1/audio/transcriptions' }],
    body: 'multipart',
    register: registerAudioTranscriptionsRoute,
  },
  {
    protocol: 'openai-videos',
    paths: [
      { method: 'POST', url: '/v1/videos' },
      { method: 'GET', url: '/v1/videos' },
      { method: 'GET', url: '/v1/videos/:videoId' },
      { method: 'DELETE', url: '/v1/videos/:videoId' },
      { method: 'POST', url: '/v1/videos/generations' },
      { method: 'GET', url: '/v1/videos/generations/:taskId' },
    ],
    body: 'multipart',
    register: registerVideoRoutes,
  },
];

/** Registers every entry of the route table in the keyed scope; form-taking entries in one scope with the form parser. */
export async function registerClientProtocolRoutes(
  keyed: FastifyInstance,
  services: GatewayServices,
  table: readonly ClientProtocolRoute[] = clientProtocolRoutes,
): Promise<void> {
  for (const entry of table) if (entry.body === 'json') entry.register(keyed, services);
  // Multipart parsing only in the scope of the routes that take a form. The plugin adds an async onResponse hook
  // (it deletes uploads saved to disk, which the gateway never saves) that every other request would run as well.
  await keyed.register(async (uploads) => {
    await uploads.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: services.config.uploadLimitBytes, files: 8, fields: 64, fieldSize: 1024 * 1024, parts: 80 },
    });
    for (const entry of table) if (entry.body === 'multipart') entry.register(uploads, services);
  });
}
