import { assertNever } from '../../core/assert-never.js';
import type { VertexAccessTokens } from './vertex-access-tokens.js';
import type { VertexCredentials } from './parse-vertex-credentials.js';

/** The authentication header of a Vertex call: a bearer token for a service account, `x-goog-api-key` for an API key. */
export async function vertexAuthHeader(
  credentials: VertexCredentials,
  tokens: VertexAccessTokens,
): Promise<Record<string, string>> {
  switch (credentials.kind) {
    case 'api-key':
      return { 'x-goog-api-key': credentials.apiKey };
    case 'service-account':
      return { authorization: `Bearer ${await tokens.tokenFor(credentials.key)}` };
    default:
      return assertNever(credentials, 'Vertex credentials');
  }
}
