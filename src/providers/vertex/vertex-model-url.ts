import { GatewayError } from '../../core/gateway-error.js';
import type { VendorChannel } from '../vendor-adapter.js';
import type { VertexCredentials } from './parse-vertex-credentials.js';
import { vertexLocations } from './vertex-regions.js';

/** Whose models a Vertex call reaches: Google's (Gemini's body) or Anthropic's (Claude, the Messages body). */
export type VertexPublisher = 'google' | 'anthropic';

/** The host Google serves the `global` location on; a region is served on `{region}-` this host. */
const globalHost = 'aiplatform.googleapis.com';

/**
 * `{base}/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{action}`. The project is the
 * `project` setting or the service-account key's; the location the `location` setting (default `global`). On Google's
 * own host a regional location moves the call to the regional host, as Vertex requires. An API key (express mode)
 * addresses `{base}/publishers/google/models/...` with no project.
 */
export function vertexModelUrl(
  channel: VendorChannel,
  credentials: VertexCredentials,
  publisher: VertexPublisher,
  model: string,
  action: string,
): string {
  const modelPath = `publishers/${publisher}/models/${encodeURIComponent(model)}:${action}`;
  const location = channel.settings['location'] ?? 'global';
  if (!vertexLocations.includes(location))
    throw new GatewayError(
      'service_unavailable',
      `The Vertex AI channel's location ${location} is not a Vertex AI location (global, us-central1, europe-west4, ...).`,
    );
  const base = regionalBase(channel.baseUrl, location);
  const project =
    channel.settings['project'] ?? (credentials.kind === 'service-account' ? credentials.key.projectId : undefined);
  if (project === undefined) {
    if (credentials.kind === 'api-key' && publisher === 'google') return `${base}/${modelPath}`;
    throw new GatewayError(
      'service_unavailable',
      'The Vertex AI channel names no project: set its `project` setting or use a service-account key with a project_id.',
    );
  }
  return `${base}/projects/${encodeURIComponent(project)}/locations/${location}/${modelPath}`;
}

function regionalBase(baseUrl: string, location: string): string {
  const url = new URL(baseUrl);
  if (url.host !== globalHost || location === 'global') return baseUrl;
  url.host = `${location}-${globalHost}`;
  return url.toString().replace(/\/+$/, '');
}
