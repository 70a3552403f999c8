import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';

/** A Google Cloud service-account key, the JSON file the console downloads (only the fields the gateway reads). */
export interface VertexServiceAccountKey {
  clientEmail: string;
  /** PEM-encoded RSA private key */
  privateKey: string;
  privateKeyId: string | undefined;
  /** the project the key belongs to: the default project of the channel */
  projectId: string | undefined;
  /** the OAuth2 token endpoint named in the key; Google's own unless the key names another */
  tokenUri: string | undefined;
}

/** How a Vertex channel authenticates: a service-account key (OAuth2 bearer tokens) or an API key (express mode). */
export type VertexCredentials =
  { kind: 'service-account'; key: VertexServiceAccountKey } | { kind: 'api-key'; apiKey: string };

const serviceAccountSchema = z.object({
  type: z.literal('service_account'),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  project_id: z.string().min(1).optional(),
  token_uri: z.string().url().optional(),
});

/**
 * Reads a Vertex channel secret: a service-account JSON key (starts with `{`) or an API key. A broken key is the
 * channel's fault, not the client's: 503 `service_unavailable`, so another channel may serve the request.
 */
export function parseVertexCredentials(secret: string): VertexCredentials {
  const trimmed = secret.trim();
  if (!trimmed.startsWith('{')) {
    if (!trimmed || /\s/.test(trimmed)) throw misconfigured('is neither a service-account JSON key nor an API key');
    return { kind: 'api-key', apiKey: trimmed };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw misconfigured('starts with `{` but is not JSON');
  }
  const checked = serviceAccountSchema.safeParse(parsed);
  if (!checked.success)
    throw misconfigured(
      'is not a service-account key (needs `type: "service_account"`, `client_email` and `private_key`)',
    );
  const key = checked.data;
  return {
    kind: 'service-account',
    key: {
      clientEmail: key.client_email,
      privateKey: key.private_key,
      privateKeyId: key.private_key_id,
      projectId: key.project_id,
      tokenUri: key.token_uri,
    },
  };
}

function misconfigured(problem: string): GatewayError {
  return new GatewayError('service_unavailable', `The Vertex AI channel secret ${problem}.`);
}
