import { createHash } from 'node:crypto';
import { JWT } from 'google-auth-library';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { VertexServiceAccountKey } from './parse-vertex-credentials.js';

/** The OAuth2 scope Vertex AI accepts. */
const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';
/** Where google-auth-library sends the JWT bearer grant; a key naming another `token_uri` is sent there instead. */
const googleTokenUrl = 'https://oauth2.googleapis.com/token';
/** a token is replaced this long before it expires (milliseconds), so no request carries one that expires in flight */
const refreshBeforeExpiryMs = 5 * 60_000;
/** the token endpoint's time to answer (milliseconds); a frozen endpoint must not hold the client's request */
const tokenRequestTimeoutMs = 10_000;
/** service-account clients kept (one per distinct key); the oldest used is dropped past this */
const maxCachedClients = 64;

/**
 * OAuth2 access tokens for service-account keys, through google-auth-library's JWT client: one client per key
 * (keyed by a hash of the key, never the key), so its token is cached for its hour and replaced five minutes
 * before expiry; concurrent requests share one exchange.
 */
export class VertexAccessTokens {
  private readonly clients = new Map<string, JWT>();

  /** A bearer token for the key, or 503 `service_unavailable` when the token endpoint refuses or fails. */
  async tokenFor(key: VertexServiceAccountKey): Promise<string> {
    const client = this.clientFor(key);
    let token: string | null | undefined;
    try {
      token = (await client.getAccessToken()).token;
    } catch (error) {
      throw new GatewayError(
        'service_unavailable',
        `Google did not issue an access token for the Vertex AI channel's service account${describeFailure(error)}.`,
      );
    }
    if (!token) throw new GatewayError('service_unavailable', 'Google answered the token request without a token.');
    return token;
  }

  private clientFor(key: VertexServiceAccountKey): JWT {
    const cacheKey = createHash('sha256')
      .update(`${key.clientEmail}\n${key.privateKey}\n${key.tokenUri ?? ''}`)
      .digest('hex');
    const cached = this.clients.get(cacheKey);
    if (cached) {
      // Re-inserted, so the map's order is the order of last use.
      this.clients.delete(cacheKey);
      this.clients.set(cacheKey, cached);
      return cached;
    }
    const client = new JWT({
      email: key.clientEmail,
      key: key.privateKey,
      ...(key.privateKeyId ? { keyId: key.privateKeyId } : {}),
      scopes: [cloudPlatformScope],
      eagerRefreshThresholdMillis: refreshBeforeExpiryMs,
      transporterOptions: { timeout: tokenRequestTimeoutMs },
    });
    const tokenUri = key.tokenUri;
    client.transporter.interceptors.request.add({
      resolved: (options) => {
        // One retry at most: a failing endpoint is reported (and the request fails over) instead of retried for long.
        options.retryConfig = { ...options.retryConfig, retry: 1 };
        if (tokenUri && options.url.href === googleTokenUrl) options.url = new URL(tokenUri);
        return Promise.resolve(options);
      },
    });
    this.clients.set(cacheKey, client);
    if (this.clients.size > maxCachedClients) {
      const oldest = this.clients.keys().next().value;
      if (oldest !== undefined) this.clients.delete(oldest);
    }
    return client;
  }
}

/** The token endpoint's HTTP status, if it answered; never its body (it may quote the key's email). */
function describeFailure(error: unknown): string {
  const answered = answeredFailureSchema.safeParse(error);
  return answered.success
    ? ` (the token endpoint answered ${answered.data.response.status})`
    : ' (the token endpoint did not answer)';
}

/** A gaxios error of a request that got an HTTP answer. */
const answeredFailureSchema = z.object({ response: z.object({ status: z.number() }) });
