// A loopback simulator of Veo on the Gemini API: `POST /v1beta/models/{model}:predictLongRunning`, polling
// `GET /v1beta/models/{model}/operations/{id}`, and the video at `GET /v1beta/files/{id}:download?alt=media`, which
// needs the key like every route and answers 302 to a signed URL on another origin (`storage`), as Google's does. Each poll moves an operation one step (no real waiting); prompt markers pick the
// outcome and faults (video-simulator-outcome.ts).
import Fastify, { type FastifyRequest } from 'fastify';
import { GeminiSimulatedError, geminiStatusError } from './gemini-simulator-errors.js';
import type { RecordedRequest } from './openai-simulator.js';
import { randomIdentifier } from './openai-simulator-text.js';
import { createTinyMp4 } from './video-simulator-mp4.js';
import { readVideoOutcome, videoJobStage } from './video-simulator-outcome.js';
import { startSignedVideoStorage, type SignedVideoStorage } from './video-simulator-signed-storage.js';
import { renderVeoOperation, type VeoOperation } from './veo-simulator-operation.js';
import { validateVeoCreate, veoSimulatorModels } from './veo-simulator-validation.js';

/** A running simulator. */
export interface VeoSimulator {
  /** base URL including `/v1beta` (a channel's base URL, as for Gemini chat) */
  url: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** the operations it holds, by name */
  operations: Map<string, VeoOperation>;
  /** the signed storage its downloads redirect to (another loopback origin) */
  storage: SignedVideoStorage;
  /** clears the recorded requests */
  reset(): void;
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface VeoSimulatorOptions {
  /** the key the gateway must send in `x-goog-api-key` */
  apiKey: string;
  /** polls after which an operation is done (a prompt's `sim-video-polls-<n>` overrides it); default 2 */
  pollsUntilDone?: number;
}

const predictPattern = /^([^:/]+):predictLongRunning$/;
const downloadPattern = /^([A-Za-z0-9]+):download$/;

/** Starts the simulator on 127.0.0.1 and a free port. */
export async function startVeoSimulator(options: VeoSimulatorOptions): Promise<VeoSimulator> {
  const requests: RecordedRequest[] = [];
  const operations = new Map<string, VeoOperation>();
  const pollsUntilDone = options.pollsUntilDone ?? 2;
  const server = Fastify({ logger: false, forceCloseConnections: true });
  const storage = await startSignedVideoStorage();
  let origin = '';

  server.addHook('onRequest', async (request) => {
    const [path = '', query] = request.url.split('?');
    requests.push({
      method: request.method,
      path,
      ...(query ? { query } : {}),
      headers: { ...request.headers },
      body: undefined,
    });
  });
  server.addHook('preHandler', async (request) => {
    const recorded = requests.at(-1);
    if (recorded) recorded.body = request.body;
    requireKey(request, options.apiKey);
  });

  server.post('/v1beta/models/:modelAction', async (request) => {
    const match = predictPattern.exec((request.params as { modelAction: string }).modelAction);
    const model = match?.[1];
    if (!model || !veoSimulatorModels.has(model)) {
      throw new GeminiSimulatedError(
        404,
        `models/${model ?? 'unknown'} is not found for API version v1beta, or is not supported for predictLongRunning.`,
      );
    }
    const create = validateVeoCreate(request.body);
    const outcome = readVideoOutcome(create.prompt);
    if (outcome.submitFailureStatus) throw geminiStatusError(outcome.submitFailureStatus);
    const operation: VeoOperation = {
      name: `models/${model}/operations/${randomIdentifier()}`,
      fileId: randomIdentifier(),
      request: create,
      outcome,
      polls: 0,
      pollFailureAnswered: false,
    };
    operations.set(operation.name, operation);
    return { name: operation.name };
  });

  server.get('/v1beta/models/:model/operations/:id', async (request) => {
    const { model, id } = request.params as { model: string; id: string };
    const operation = operations.get(`models/${model}/operations/${id}`);
    if (!operation) throw new GeminiSimulatedError(404, 'Requested entity was not found.');
    if (operation.outcome.vanishes && operation.polls >= 1) {
      operations.delete(operation.name);
      throw new GeminiSimulatedError(404, 'Requested entity was not found.');
    }
    if (operation.outcome.firstPollFailureStatus && !operation.pollFailureAnswered) {
      operation.pollFailureAnswered = true;
      throw geminiStatusError(operation.outcome.firstPollFailureStatus);
    }
    operation.polls += 1;
    return renderVeoOperation(operation, pollsUntilDone, origin, options.apiKey);
  });

  server.get('/v1beta/files/:fileAction', async (request, reply) => {
    const fileId = downloadPattern.exec((request.params as { fileAction: string }).fileAction)?.[1];
    const operation = [...operations.values()].find((candidate) => candidate.fileId === fileId);
    const finished =
      operation &&
      videoJobStage(operation.polls, operation.outcome.pollsUntilDone ?? pollsUntilDone, operation.outcome).stage ===
        'done';
    if (!operation || !finished || operation.outcome.kind !== 'success')
      throw new GeminiSimulatedError(404, 'Requested entity was not found.');
    if ((request.query as { alt?: string }).alt !== 'media')
      throw new GeminiSimulatedError(400, 'Downloading a file needs alt=media.');
    const fault = operation.outcome.downloadFault;
    switch (fault) {
      case '404':
        throw new GeminiSimulatedError(404, 'Requested entity was not found.');
      case '500':
        throw geminiStatusError(500);
      case 'no-location':
        return reply.code(302).send();
      case undefined:
      case 'redirect':
      case 'loop':
      case 'break':
      case 'break-once':
      case 'oversize':
      case 'oversize-unannounced':
        // The file lives in signed storage: the key is needed here, never there.
        return reply
          .code(302)
          .header('location', storage.sign(operation.fileId, createTinyMp4(operation.request.durationSeconds), fault))
          .send();
      default: {
        const unknownFault: never = fault;
        throw new Error(`unknown download fault ${String(unknownFault)}`);
      }
    }
  });

  server.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(new GeminiSimulatedError(404, 'Requested entity was not found.').toBody()),
  );
  server.setErrorHandler((error: Error, _request, reply) => {
    if (error instanceof GeminiSimulatedError) return reply.code(error.status).send(error.toBody());
    return reply
      .code(400)
      .send(new GeminiSimulatedError(400, `Invalid JSON payload received. ${error.message}`).toBody());
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1beta`,
    requests,
    operations,
    storage,
    reset: () => {
      requests.length = 0;
      storage.requests.length = 0;
    },
    close: async () => {
      await server.close();
      await storage.close();
    },
  };
}

/** Gemini answers a missing key with 403 PERMISSION_DENIED and a wrong one with 400 API_KEY_INVALID. */
function requireKey(request: FastifyRequest, apiKey: string): void {
  const sent = request.headers['x-goog-api-key'];
  if (sent === undefined)
    throw new GeminiSimulatedError(
      403,
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    );
  if (sent !== apiKey)
    throw new GeminiSimulatedError(400, 'API key not valid. Please pass a valid API key.', ['API_KEY_INVALID']);
}
