import type { FastifyRequest } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { hashApiKeySecret } from '../accounts/api-key-secret.js';
import { GatewayError } from '../core/gateway-error.js';
import type { RoutingCache } from '../routing/routing-cache.js';
import type { KeyPrincipal } from '../routing/routing-table.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the caller behind the API key; set by the /v1 auth hook */
    principal: KeyPrincipal;
  }
}

/** Unknown keys trigger revision checks at most this often (shared by every waiting request). */
const unknownKeyCheckGapMs = 50;

/**
 * Invalid keys one client address may send per window before its unknown keys are refused with 429, before the
 * database check an unknown key otherwise triggers. Keys the gateway knows are looked up in memory first and are
 * never slowed, whatever else their address sent.
 */
export const invalidApiKeyLimit = { attempts: 30, windowSeconds: 60 } as const;

// One counter per gateway (each has its own routing cache), so gateways in one process do not share counts.
const invalidKeyCounters = new WeakMap<RoutingCache, RateLimiterMemory>();

/** Hashes of keys that resolved to a principal, by key: a SHA-256 per request is about 1 % of the gateway's CPU. */
const knownKeyHashes = new Map<string, string>();
/** Known keys remembered at most; the memo starts over when full (a gateway serves far fewer live keys). */
const knownKeyHashesLimit = 10_000;

/**
 * Resolves the API key to a principal from memory, or throws 401 `invalid_api_key` (429 for an address that sent too
 * many). The key comes from `Authorization: Bearer <key>` (OpenAI clients, Claude Code's auth token) or, when that is
 * absent, from `x-api-key` (the Anthropic SDK and Claude Code's API key), then `x-goog-api-key` or `?key=` (Gemini's).
 */
export async function authenticateApiKey(
  request: FastifyRequest,
  routing: RoutingCache,
  now: number,
): Promise<KeyPrincipal> {
  const secret = apiKeySecretOf(request);
  if (!secret) {
    throw new GatewayError(
      'invalid_api_key',
      "You didn't provide an API key. Send it in the Authorization header as 'Bearer <key>' or in the x-api-key header.",
    );
  }
  const keyHash = knownKeyHashes.get(secret) ?? hashApiKeySecret(secret);
  let principal = routing.current.findPrincipal(keyHash);
  if (principal) rememberKnownKeyHash(secret, keyHash);
  else {
    const counter = invalidKeyCounterOf(routing);
    await refuseAddressWithTooManyInvalidKeys(counter, request.ip);
    await routing.refreshStartedAfter(now, unknownKeyCheckGapMs);
    principal = routing.current.findPrincipal(keyHash);
    if (!principal) {
      await counter.penalty(request.ip, 1);
      throw new GatewayError('invalid_api_key', `Incorrect API key provided: ${maskSecret(secret)}.`);
    }
  }
  if (principal.expiresAt !== null && principal.expiresAt <= now) {
    throw new GatewayError('invalid_api_key', 'This API key has expired.');
  }
  return principal;
}

/** The key of `Authorization: Bearer`, else `x-api-key`, `x-goog-api-key` or (on /v1beta) `?key=`; else undefined. */
function apiKeySecretOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
  if (bearer) return bearer;
  const apiKeyHeader = request.headers['x-api-key'];
  const apiKey = typeof apiKeyHeader === 'string' ? apiKeyHeader.trim() : undefined;
  if (apiKey) return apiKey;
  // Gemini's clients: @google/genai sends `x-goog-api-key`; curl examples and some tools put `?key=` in the URL.
  const googleKeyHeader = request.headers['x-goog-api-key'];
  const googleKey = typeof googleKeyHeader === 'string' ? googleKeyHeader.trim() : undefined;
  if (googleKey) return googleKey;
  // Only Gemini's paths take a key in the URL (where proxies log it): no other client protocol sends one there.
  if (!request.url.startsWith('/v1beta/')) return undefined;
  const queryKey = (request.query as Record<string, unknown> | undefined)?.key;
  return typeof queryKey === 'string' && queryKey.trim() ? queryKey.trim() : undefined;
}

// Only keys that resolved are remembered, so a flood of invalid keys cannot fill the memo or evict real ones.
function rememberKnownKeyHash(secret: string, keyHash: string): void {
  if (knownKeyHashes.has(secret)) return;
  if (knownKeyHashes.size >= knownKeyHashesLimit) knownKeyHashes.clear();
  knownKeyHashes.set(secret, keyHash);
}

function invalidKeyCounterOf(routing: RoutingCache): RateLimiterMemory {
  let counter = invalidKeyCounters.get(routing);
  if (!counter) {
    counter = new RateLimiterMemory({
      keyPrefix: 'gateway:invalid-key',
      points: invalidApiKeyLimit.attempts,
      duration: invalidApiKeyLimit.windowSeconds,
    });
    invalidKeyCounters.set(routing, counter);
  }
  return counter;
}

async function refuseAddressWithTooManyInvalidKeys(counter: RateLimiterMemory, address: string): Promise<void> {
  const state = await counter.get(address);
  if (state === null || state.consumedPoints < invalidApiKeyLimit.attempts) return;
  const retryAfterSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  throw new GatewayError(
    'rate_limit_exceeded',
    `Too many requests with invalid API keys from this address. Retry after ${retryAfterSeconds} s.`,
    {
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );
}

function maskSecret(secret: string): string {
  return secret.length <= 12 ? '****' : `${secret.slice(0, 8)}****${secret.slice(-4)}`;
}
