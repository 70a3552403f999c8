// The OAuth2 token endpoint of the Vertex simulator: Google's JWT bearer grant, checked as Google checks it
// (RS256 signature with the service account's public key, issuer, audience, scope, an hour at most), answering
// short-lived access tokens the model endpoints then require.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { randomIdentifier } from './openai-simulator-text.js';

/** Google's token URL: the audience every assertion must name, whatever address it is sent to. */
export const googleTokenAudience = 'https://oauth2.googleapis.com/token';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

/** What the token endpoint knows of the one service account it serves. */
export interface ServiceAccountIdentity {
  clientEmail: string;
  privateKeyId: string;
  /** PEM of the account's public key */
  publicKeyPem: string;
}

/** An OAuth2 error answer (`{error, error_description}`), as Google's token endpoint sends. */
export class TokenEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** Issued tokens and the exchanges that issued them. */
export class VertexTokenIssuer {
  private readonly expiryOfToken = new Map<string, number>();
  private readonly publicKey: KeyObject;
  /** the token exchanges answered (successful or not) */
  exchangeCount = 0;
  /** while set, every exchange is answered with this HTTP status */
  failWithStatus: number | undefined;

  constructor(
    private readonly account: ServiceAccountIdentity,
    /** seconds a token lives */
    private readonly tokenLifetimeSeconds: number,
  ) {
    this.publicKey = createPublicKey(account.publicKeyPem);
  }

  /** Answers one `application/x-www-form-urlencoded` token request. */
  exchange(formBody: string): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    this.exchangeCount++;
    if (this.failWithStatus !== undefined)
      throw new TokenEndpointError(this.failWithStatus, 'internal_failure', 'The token service is failing.');
    const form = new URLSearchParams(formBody);
    if (form.get('grant_type') !== jwtBearerGrant)
      throw new TokenEndpointError(400, 'unsupported_grant_type', 'Invalid grant_type.');
    const claims = this.verifiedClaims(form.get('assertion') ?? '');
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== this.account.clientEmail)
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: the issuer is not a known service account.');
    if (claims.aud !== googleTokenAudience)
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: the audience is not the token URL.');
    if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(cloudPlatformScope))
      throw new TokenEndpointError(400, 'invalid_scope', 'The cloud-platform scope is required.');
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number')
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: iat and exp are required.');
    if (claims.exp - claims.iat > 3600 || claims.exp <= now || claims.iat > now + 300)
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token.');
    const token = `ya29.sim-${randomIdentifier()}`;
    this.expiryOfToken.set(token, Date.now() + this.tokenLifetimeSeconds * 1000);
    return { access_token: token, expires_in: this.tokenLifetimeSeconds, token_type: 'Bearer' };
  }

  /** True when the token was issued here and has not expired. */
  accepts(token: string): boolean {
    const expiry = this.expiryOfToken.get(token);
    return expiry !== undefined && expiry > Date.now();
  }

  private verifiedClaims(assertion: string): Record<string, unknown> {
    const [header, payload, signature] = assertion.split('.');
    if (header === undefined || payload === undefined || signature === undefined)
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: not three segments.');
    const headerFields = parseSegment(header);
    if (headerFields.alg !== 'RS256')
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: the algorithm must be RS256.');
    if (headerFields.kid !== undefined && headerFields.kid !== this.account.privateKeyId)
      throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: unknown key id.');
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      this.publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT Signature.');
    return parseSegment(payload);
  }
}

function parseSegment(segment: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new TokenEndpointError(400, 'invalid_grant', 'Invalid JWT: a segment is not base64url JSON.');
}
