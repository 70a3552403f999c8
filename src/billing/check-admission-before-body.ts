import { GatewayError } from '../core/gateway-error.js';
import type { EarlyRequest, UnbilledAdmission } from './request-accounting.js';
import type { BillingRuntime } from './billing-runtime.js';
import { resolveAdmissionSubject } from './resolve-admission-subject.js';

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
  const { principal } = request;
  const { key, limitSubjects } = await resolveAdmissionSubject(runtime, principal, request.clientIp);
  // A group priced at zero charges nothing, so an empty balance or a spent cap does not stop its requests.
  const charges = memory.priceRatioOf(principal.groupId) > 0;
  if (charges && key && key.spendingCap !== null && key.spent + key.held >= key.spendingCap) {
    throw new GatewayError(
      'insufficient_quota',
      'You exceeded your current quota: this API key reached its spending cap.',
    );
  }
  if (charges && !hasMoneyLeft(runtime, principal.userId)) {
    // A top-up made a moment ago (maybe through another node) counts: look once more before refusing.
    await runtime.refreshStartedAfter(request.receivedAt, shortBalanceCheckGapMs);
    if (!hasMoneyLeft(runtime, principal.userId)) {
      throw new GatewayError(
        'insufficient_quota',
        'You exceeded your current quota: your balance is used up. Top up your balance to continue.',
      );
    }
  }
  if (limitSubjects.length === 0) return;
  try {
    await rateLimiter.refuseIfExhausted(limitSubjects);
  } catch (error) {
    // A counter store that cannot answer decides nothing here; full admission will.
    if (error instanceof GatewayError) throw error;
  }
}

/**
 * A free request (Messages `count_tokens`) admitted: refused as checkAdmissionBeforeBody refuses (no balance, a spent
 * cap, an address outside the key's list, used-up limits), then counted as one request against the key's and user's
 * rate limits, with no tokens: anyone with a key can otherwise make the gateway and its vendors work for free.
 */
export async function admitUnbilledRequest(runtime: BillingRuntime, request: EarlyRequest): Promise<UnbilledAdmission> {
  await checkAdmissionBeforeBody(runtime, request);
  const { limitSubjects } = await resolveAdmissionSubject(runtime, request.principal, request.clientIp);
  if (limitSubjects.length === 0) return { responseHeaders: {}, release: () => undefined };
  const admission = await runtime.rateLimiter.admit(limitSubjects, 0);
  return { responseHeaders: admission.headers, release: () => admission.release(0) };
}

/** The balance this node sees, minus its holds; never below what is really spendable, so it refuses nothing payable. */
function hasMoneyLeft(runtime: BillingRuntime, userId: string): boolean {
  const user = runtime.memory.user(userId);
  return user.debt === 0 && user.balance - user.held > 0;
}
