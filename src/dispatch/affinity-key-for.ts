/**
 * A request's prompt prefix key, or a function that computes it (hashing the prefix costs a SHA-256 over the system
 * prompt, tools and first messages, so routes pass a thunk and it runs only when it can matter).
 */
export type CacheAffinityKeySource = string | (() => string | undefined);

/**
 * The cache-sticky routing key of a request (`<model>\n<prompt prefix key>`), computed only when the model has more
 * than one channel to choose from: with one, stickiness cannot change where the request goes. Undefined without a key.
 */
export function affinityKeyFor(
  modelId: string,
  source: CacheAffinityKeySource | undefined,
  candidateCount: number,
): string | undefined {
  if (source === undefined || candidateCount <= 1) return undefined;
  const key = typeof source === 'function' ? source() : source;
  return key === undefined ? undefined : `${modelId}\n${key}`;
}
