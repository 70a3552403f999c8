import { GatewayError } from '../core/gateway-error.js';
import type { EarlyRequest } from '../server/request-accounting.js';
import { isAddressAllowed } from './billing-memory.js';
import type { BillingRuntime } from './billing-runtime.js';
import { RequestRateLimiter, type LimitSubject } from './request-rate-limiter.js';

/** Short balances trigger balance checks at most this often (shared by every waiting request). */
const shortBalanceCheckGapMs = 50;

/**
 * The part of admission that needs no body: the key's address list (403), its spending cap and the user's
 * balance (429 `insufficient_quota`), and rate-limit counters already used up (429 `rate_limit_exceeded`).
 * It refuses only what full admission would surely refuse, takes no hold and no slot, and reads memory (or
 * the rate limiter's counters), so a large upload from a key that cannot pay is answered before it is read.
 */
export async function checkAdmissionBeforeBody(runtime: BillingRuntime, request: EarlyRequest): Promise<void> {
  const { memory, rateLimiter } = runtime;
  const { config } = runtime.options;
  const { principal } = request;
  if (memory.shouldLookForKey(principal.apiKeyId)) {
    await runtime.refresh(false);
    memory.markKeyMissing(principal.apiKeyId);
  }
  const key = memory.key(principal.apiKeyId);
  if (key && !isAddressAllowed(key.allowedAddresses, request.clientIp)) {
    throw new GatewayError('forbidden', `This API key may not be used from ${request.clientIp}.`);
  }
  // A group priced at zero charges nothing, so an empty balance or a spent cap does not stop its requests.
  const charges = memory.priceRatioOf(principal.groupId) > 0;
  if (charges && key && key.spendingCap !== null && key.spent + key.held >= key.spendingCap) {
    throw new GatewayError('insufficient_quota', 'You exceeded your current quota: this API key reached its spending cap.');
  }
  if (charges && !hasMoneyLeft(runtime, principal.userId)) {
    // A top-up made a moment ago (maybe through another node) counts: look once more before refusing.
    await runtime.refreshStartedAfter(request.receivedAt, shortBalanceCheckGapMs);
    if (!hasMoneyLeft(runtime, principal.userId)) {
      throw new GatewayError('insufficient_quota', 'You exceeded your current quota: your balance is used up. Top up your balance to continue.');
    }
  }
  const subjects: LimitSubject[] = [];
  const keyLimits = RequestRateLimiter.effectiveLimits(key?.limits ?? { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null }, config.keyLimits);
  const userLimits = RequestRateLimiter.effectiveLimits(memory.user(principal.userId).limits, config.userLimits);
  if (keyLimits.requestsPerMinute > 0 || keyLimits.tokensPerMinute > 0 || keyLimits.maxConcurrentRequests > 0) subjects.push({ scope: 'key', id: principal.apiKeyId, limits: keyLimits });
  if (userLimits.requestsPerMinute > 0 || userLimits.tokensPerMinute > 0 || userLimits.maxConcurrentRequests > 0) subjects.push({ scope: 'user', id: principal.userId, limits: userLimits });
  if (subjects.length === 0) return;
  try {
    await rateLimiter.refuseIfExhausted(subjects);
  } catch (error) {
    // A counter store that cannot answer decides nothing here; full admission will.
    if (error instanceof GatewayError) throw error;
  }
}

/** The balance this node sees, minus its holds; never below what is really spendable, so it refuses nothing payable. */
function hasMoneyLeft(runtime: BillingRuntime, userId: string): boolean {
  const user = runtime.memory.user(userId);
  return user.balance - user.held > 0;
}
