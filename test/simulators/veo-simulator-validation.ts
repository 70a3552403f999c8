// Checks a Veo `:predictLongRunning` body as the Gemini API (mldev) does, with Google-style 400s.
import { geminiInvalidArgument } from './gemini-simulator-errors.js';

/** Veo models the simulator serves. */
export const veoSimulatorModels: ReadonlySet<string> = new Set(['veo-3.0-generate-001', 'veo-3.0-fast-generate-001']);

const instanceFields = new Set(['prompt', 'image', 'lastFrame', 'referenceImages', 'video']);
const parameterFields = new Set([
  'sampleCount',
  'durationSeconds',
  'aspectRatio',
  'resolution',
  'personGeneration',
  'negativePrompt',
  'enhancePrompt',
]);
/** Parameters only Vertex AI takes: the Gemini API rejects them. */
const vertexOnlyParameters = new Set([
  'seed',
  'fps',
  'generateAudio',
  'storageUri',
  'compressionQuality',
  'mask',
  'pubsubTopic',
  'labels',
  'resizeMode',
]);

/** A valid request, defaults applied. */
export interface VeoCreateRequest {
  prompt: string;
  /** seconds */
  durationSeconds: number;
  aspectRatio: '16:9' | '9:16';
  resolution: '720p' | '1080p';
  sampleCount: number;
}

/** Validates the body; throws Gemini's 400 INVALID_ARGUMENT naming the field. */
export function validateVeoCreate(body: unknown): VeoCreateRequest {
  const request = asObject(body, 'request body');
  const instances = request.instances;
  if (!Array.isArray(instances) || instances.length !== 1)
    throw geminiInvalidArgument('* instances: exactly one instance is required.');
  const instance = asObject(instances[0], 'instances[0]');
  for (const name of Object.keys(instance)) {
    if (!instanceFields.has(name))
      throw geminiInvalidArgument(
        `Invalid JSON payload received. Unknown name "${name}" at 'instances[0]': Cannot find field.`,
      );
  }
  if (typeof instance.prompt !== 'string' || instance.prompt.trim() === '')
    throw geminiInvalidArgument('* instances[0].prompt: a text prompt is required.');
  const parameters = request.parameters === undefined ? {} : asObject(request.parameters, 'parameters');
  for (const name of Object.keys(parameters)) {
    if (vertexOnlyParameters.has(name)) throw geminiInvalidArgument(`\`${name}\` isn't supported by this model.`);
    if (!parameterFields.has(name))
      throw geminiInvalidArgument(
        `Invalid JSON payload received. Unknown name "${name}" at 'parameters': Cannot find field.`,
      );
  }
  const durationSeconds = parameters.durationSeconds ?? 8;
  if (durationSeconds !== 4 && durationSeconds !== 6 && durationSeconds !== 8)
    throw geminiInvalidArgument(
      `The number value for \`durationSeconds\` is out of bound. Please provide a value between 4 and 8, inclusive, one of 4, 6, 8.`,
    );
  const aspectRatio = parameters.aspectRatio ?? '16:9';
  if (aspectRatio !== '16:9' && aspectRatio !== '9:16')
    throw geminiInvalidArgument(`Aspect ratio \`${String(aspectRatio)}\` is not supported; use 16:9 or 9:16.`);
  const resolution = parameters.resolution ?? '720p';
  if (resolution !== '720p' && resolution !== '1080p')
    throw geminiInvalidArgument(`Resolution \`${String(resolution)}\` is not supported; use 720p or 1080p.`);
  if (resolution === '1080p' && (aspectRatio !== '16:9' || durationSeconds !== 8))
    throw geminiInvalidArgument('1080p is supported only for 16:9 videos of 8 seconds.');
  const sampleCount = parameters.sampleCount ?? 1;
  if (typeof sampleCount !== 'number' || !Number.isInteger(sampleCount) || sampleCount < 1 || sampleCount > 4)
    throw geminiInvalidArgument('`sampleCount` must be an integer from 1 to 4.');
  return { prompt: instance.prompt, durationSeconds, aspectRatio, resolution, sampleCount };
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw geminiInvalidArgument(`Invalid JSON payload received. ${where} must be an object.`);
}
