// A simulated Veo long-running operation and how each poll renders it (Gemini's `Operation` JSON).
import { videoJobStage, type VideoOutcome } from './video-simulator-outcome.js';
import type { VeoCreateRequest } from './veo-simulator-validation.js';

/** One simulated operation. */
export interface VeoOperation {
  /** `models/{model}/operations/{id}` */
  name: string;
  /** the id of the file its video downloads from */
  fileId: string;
  request: VeoCreateRequest;
  outcome: VideoOutcome;
  /** successful status reads so far */
  polls: number;
  /** true once the first-poll failure (if any) was answered */
  pollFailureAnswered: boolean;
}

const responseType = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';

/** The operation as a poll sees it; `origin` is where the video file downloads from; `apiKey` the key a failure may quote. */
export function renderVeoOperation(
  operation: VeoOperation,
  pollsUntilDone: number,
  origin: string,
  apiKey = '',
): Record<string, unknown> {
  const stage = videoJobStage(operation.polls, operation.outcome.pollsUntilDone ?? pollsUntilDone, operation.outcome);
  // proto3 JSON leaves `done: false` out, as Google does.
  if (stage.stage !== 'done') return { name: operation.name };
  switch (operation.outcome.kind) {
    case 'failure': {
      // Google's errors do quote request details; a gateway must not pass the key or its host on.
      const message = operation.outcome.failureQuotesKey
        ? `Video generation failed for API key ${apiKey} calling ${origin}/v1beta: internal error.`
        : 'Video generation failed due to an internal error.';
      return { name: operation.name, done: true, error: { code: 13, message } };
    }
    case 'content-filtered':
      return {
        name: operation.name,
        done: true,
        response: {
          '@type': responseType,
          generateVideoResponse: {
            raiMediaFilteredCount: 1,
            raiMediaFilteredReasons: ["We can't create videos from this prompt: it may violate our policies."],
          },
        },
      };
    case 'success':
    case 'never-finishes':
    case 'foreign-uri': {
      const fileOrigin = operation.outcome.kind === 'foreign-uri' ? 'http://video-files.invalid' : origin;
      const samples = Array.from({ length: operation.request.sampleCount }, () => ({
        video: { uri: `${fileOrigin}/v1beta/files/${operation.fileId}:download?alt=media` },
      }));
      return {
        name: operation.name,
        done: true,
        response: { '@type': responseType, generateVideoResponse: { generatedSamples: samples } },
      };
    }
    default: {
      const unknownKind: never = operation.outcome.kind;
      throw new Error(`unknown outcome ${String(unknownKind)}`);
    }
  }
}
