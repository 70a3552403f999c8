/** Route-pattern prefixes of the /v1 (and Gemini /v1beta) endpoint families, longest first where they overlap. */
const clientFamilies: readonly (readonly [prefix: string, group: string])[] = [
  ['/v1/chat/completions', 'v1_chat_completions'],
  ['/v1/completions', 'v1_completions'],
  ['/v1/embeddings', 'v1_embeddings'],
  ['/v1/messages', 'v1_messages'],
  ['/v1/responses', 'v1_responses'],
  ['/v1/images', 'v1_images'],
  ['/v1/audio', 'v1_audio'],
  ['/v1/videos', 'v1_videos'],
  ['/v1/models', 'v1_models'],
  ['/v1beta/', 'v1beta_gemini'],
];

/** The probes a load balancer or scraper calls. */
const probeRoutes = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The route group a request counts under in `gateway_in_flight_requests`, from its matched route pattern (a fixed
 * string per route, never the client's path, so the label set stays small): the /v1 endpoint family (`v1_chat_completions`,
 * `v1_messages`, ...), `api` for the console's JSON API, `probes`, `console` for the console's pages and files, and
 * `other` for a path no route serves (answered 404) or any other /v1 path.
 */
export function routeGroupOf(routePattern: string | undefined): string {
  if (routePattern === undefined || routePattern === '') return 'other';
  if (routePattern.startsWith('/v1')) {
    for (const [prefix, group] of clientFamilies) if (routePattern.startsWith(prefix)) return group;
    return 'other';
  }
  if (routePattern.startsWith('/api/')) return 'api';
  if (probeRoutes.has(routePattern)) return 'probes';
  return 'console';
}
