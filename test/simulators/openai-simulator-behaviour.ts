// The special model names that make the simulator misbehave on purpose.

/** What the simulator does for a request, chosen by the model name it received. */
export type ModelBehaviour =
  /** answer normally */
  | { kind: 'normal' }
  /** answer with this HTTP status and an OpenAI error body (`sim-error-<status>`, or `sim-error-<status>-retry-after-<seconds>` to set `Retry-After`) */
  | { kind: 'error'; status: number; retryAfterSeconds?: number }
  /** stream normally but wait between content chunks (`sim-slow-stream`) */
  | { kind: 'slow-stream'; chunkDelayMs: number }
  /** send the headers and two content chunks, then destroy the socket (`sim-broken-stream`) */
  | { kind: 'broken-stream' }
  /** never answer (`sim-hang`) */
  | { kind: 'hang' }
  /** reply with exactly `chunkCount` words, one chunk every `intervalMs` (`sim-paced-<N>x<M>`) */
  | { kind: 'paced'; chunkCount: number; intervalMs: number }
  /** send the stream's 200 headers, then destroy the socket before any event (`sim-broken-before-first-event`) */
  | { kind: 'broken-before-first-event' }
  /** two content chunks, then OpenAI's mid-stream error event and the end of the body, no [DONE] (`sim-stream-error-event`) */
  | { kind: 'stream-error-event' }
  /** answer normally but report half the prompt as read from the prompt cache (`sim-cached-prompt`) */
  | { kind: 'cached-prompt' }
  /** answer normally but without any `usage` (`sim-no-usage`), as some OpenAI-compatible vendors do */
  | { kind: 'no-usage' }
  /** answer normally, but the usage counts this many hidden reasoning tokens in the output (`sim-reasoning-<N>`), as reasoning models do */
  | { kind: 'reasoning'; reasoningTokens: number }
  /** stream this many content chunks, then send nothing more and keep the connection open (`sim-stall-after-<N>`) */
  | { kind: 'stall'; contentChunks: number };

const slowStreamDelayMs = 50;
const errorModelPattern = /^sim-error-([45]\d\d)$/;
const retryAfterErrorModelPattern = /^sim-error-([45]\d\d)-retry-after-(\d+)$/;
const pacedModelPattern = /^sim-paced-(\d+)x(\d+)$/;
const reasoningModelPattern = /^sim-reasoning-(\d+)$/;
const stallModelPattern = /^sim-stall-after-(\d+)$/;

/** Reads the behaviour out of a model name; anything unknown (or not a string) is normal. */
export function behaviourForModel(model: unknown): ModelBehaviour {
  if (typeof model !== 'string' || !model.startsWith('sim-')) return { kind: 'normal' };
  if (model === 'sim-slow-stream') return { kind: 'slow-stream', chunkDelayMs: slowStreamDelayMs };
  if (model === 'sim-broken-stream') return { kind: 'broken-stream' };
  if (model === 'sim-hang') return { kind: 'hang' };
  if (model === 'sim-broken-before-first-event') return { kind: 'broken-before-first-event' };
  if (model === 'sim-stream-error-event') return { kind: 'stream-error-event' };
  if (model === 'sim-cached-prompt') return { kind: 'cached-prompt' };
  if (model === 'sim-no-usage') return { kind: 'no-usage' };
  const errorMatch = errorModelPattern.exec(model);
  if (errorMatch) return { kind: 'error', status: Number(errorMatch[1]) };
  const retryAfterMatch = retryAfterErrorModelPattern.exec(model);
  if (retryAfterMatch)
    return { kind: 'error', status: Number(retryAfterMatch[1]), retryAfterSeconds: Number(retryAfterMatch[2]) };
  const pacedMatch = pacedModelPattern.exec(model);
  if (pacedMatch) return { kind: 'paced', chunkCount: Number(pacedMatch[1]), intervalMs: Number(pacedMatch[2]) };
  const reasoningMatch = reasoningModelPattern.exec(model);
  if (reasoningMatch) return { kind: 'reasoning', reasoningTokens: Number(reasoningMatch[1]) };
  const stallMatch = stallModelPattern.exec(model);
  if (stallMatch) return { kind: 'stall', contentChunks: Number(stallMatch[1]) };
  return { kind: 'normal' };
}

const delayedModelPattern = /^sim-delay-(\d+)-(.+)$/;

/** `sim-delay-<ms>-<model>`: wait that long before answering as `<model>` would (e.g. `sim-delay-1000-sim-error-500`). */
export function readModelDelay(model: unknown): { delayMs: number; model: string } | undefined {
  const match = typeof model === 'string' ? delayedModelPattern.exec(model) : null;
  return match ? { delayMs: Number(match[1]), model: match[2] as string } : undefined;
}

/** The hidden reasoning tokens a model name makes the usage report (`sim-reasoning-<N>`), 0 for any other name. */
export function hiddenReasoningTokensOf(model: unknown): number {
  const behaviour = behaviourForModel(model);
  return behaviour.kind === 'reasoning' ? behaviour.reasoningTokens : 0;
}
