import { createRecordId } from '../core/create-record-id.js';
import { GatewayError } from '../core/gateway-error.js';
import { StoreUnavailableError, storeRetryAfterSeconds } from '../storage/store-unavailable-error.js';
import { createRateLimitedLog } from './rate-limited-log.js';
import { formatMicroUnits } from './money.js';
import type {
  EarlyRequest,
  MeteredRequest,
  MeteredResult,
  MeteredTicket,
  RequestAccounting,
} from './request-accounting.js';
import type { UsageLogRecord } from '../storage/billing-records.js';
import type { BillingRuntime } from './billing-runtime.js';
import type { BillableUsage } from './billable-usage.js';
import { calculateRequestCost } from './calculate-request-cost.js';
import { costOfPricing, priceRequest, type RequestPricing } from './request-pricing.js';
import { admitUnbilledRequest, checkAdmissionBeforeBody } from './check-admission-before-body.js';
import { estimateWorstCaseUsage } from './estimate-worst-case-usage.js';
import { findUncountedAnswerText } from './find-uncounted-answer-text.js';
import { measureBillableUsage } from './measure-billable-usage.js';
import type { ModelPrice } from './model-price.js';
import { holdPriceRatio, settlementPriceRatio } from './premium-price-ratio.js';
import type { RateLimitAdmission } from './request-rate-limiter.js';
import { resolveAdmissionSubject, resolveKnownAdmissionSubject } from './resolve-admission-subject.js';
import { requireModelPrice } from './require-model-price.js';
import type { RefusalCounts, RefusalReason } from '../observability/refusal-counts.js';
import { refusalReasonOf } from './refusal-reason-of.js';

/** An admitted request: what was held, so `close` can settle against it. */
interface BillingTicket extends MeteredTicket {
  request: MeteredRequest;
  /** micro-units held against the balance (and the key's cap) */
  held: number;
  price: ModelPrice;
  priceRatioMillionths: number;
  inputTokens: number;
  admission: RateLimitAdmission | undefined;
  closed: boolean;
}

/** A request's hold before it is admitted, and what its settlement prices it with. */
interface HoldEstimate {
  /** input tokens counted from the request */
  inputTokens: number;
  price: ModelPrice;
  priceRatioMillionths: number;
  /** micro-units: the worst-case cost, held against the balance and the key's cap */
  worstCost: number;
}

const balanceShortfallMessage =
  'You exceeded your current quota: the balance cannot cover this request. Top up your balance or lower max_tokens.';

const keyCapMessage = 'You exceeded your current quota: this API key reached its spending cap.';

/** The refusal while a debt stands: says what is owed and how it is paid. */
function debtMessage(debt: number): string {
  // With several nodes, the debt may have been recorded by another node whose batch this one has not read yet.
  const amount = debt > 0 ? ` of ${formatMicroUnits(debt)}` : '';
  return `You exceeded your current quota: your account has an unpaid debt${amount} (a request cost more than your balance could cover). Top up your balance: the debt is paid first, then requests are accepted again.`;
}

/** A full settlement queue is logged at most this often, not once per refused request. */
const queueFullWarningGapMs = 10_000;
/** Short balances trigger balance checks at most this often (shared by every waiting request). */
const shortBalanceCheckGapMs = 50;

/**
 * Accounting with money: `open` checks the key's address list and rate limits, then holds the worst-case cost
 * in memory (429 `insufficient_quota` when the balance or the key's cap cannot cover it); `close` charges the
 * real cost in memory at once and queues the ledger row, balance change and usage log for the batch writer. Each
 * refusal is counted by reason in `refusals` when given (`gateway_refusals_total`).
 */
export function createBillingAccounting(runtime: BillingRuntime, refusals?: RefusalCounts): RequestAccounting {
  const { memory, rateLimiter, writer, holds } = runtime;
  const { config, logger, clock } = runtime.options;
  let lastQueueFullWarningAt = Number.NEGATIVE_INFINITY;
  // While Redis is down every request fails the same way: one line per 10 s, not one per request.
  const logWalletFailure = createRateLimitedLog(logger, 'error');

  function recordRejection(request: MeteredRequest, error: GatewayError): void {
    // Counted per minute, key, model and code, not one usage row each; a full queue counts none (refused-request-counter.ts).
    writer.countRefusal({
      receivedAt: request.receivedAt,
      userId: request.principal.userId,
      apiKeyId: request.principal.apiKeyId,
      model: request.model.id,
      status: error.status,
      errorCode: error.code,
    });
  }

  /**
   * `admission`, with its refusal counted like the others: made before the body was read (or for a free request), it
   * has no model to count under, so it is counted under `''`.
   */
  async function countingEarlyRefusals<T>(request: EarlyRequest, admission: Promise<T>): Promise<T> {
    try {
      return await admission;
    } catch (error) {
      if (error instanceof GatewayError) {
        refusals?.count(refusalReasonOf(error));
        writer.countRefusal({
          receivedAt: request.receivedAt,
          userId: request.principal.userId,
          apiKeyId: request.principal.apiKeyId,
          model: '',
          status: error.status,
          errorCode: error.code,
        });
      }
      throw error;
    }
  }

  /**
   * Admission with nothing to wait for, the common case on one node: the key is known, rate limits count in memory and
   * the balance covers the hold. Checks and holds then happen in one turn of the event loop, with no promise. Undefined
   * when the request must take `admitAfterAwaits` (nothing taken yet).
   */
  function admitAtOnce(request: MeteredRequest): BillingTicket | undefined {
    const { principal } = request;
    if (runtime.wallet || memory.shouldLookForKey(principal.apiKeyId)) return undefined;
    const { limitSubjects } = resolveKnownAdmissionSubject(runtime, principal, request.clientIp);
    if (limitSubjects.length > 0 && rateLimiter.admitAtOnce === undefined) return undefined;
    const hold = estimateHold(request);
    // A short balance waits for a balance check before it is refused.
    if (shortfallOf(request, hold.worstCost) !== undefined) return undefined;
    const admission = limitSubjects.length > 0 ? rateLimiter.admitAtOnce!(limitSubjects, hold.inputTokens) : undefined;
    takeHold(request, hold.worstCost);
    return ticketOf(request, hold, admission);
  }

  /** Admission that waits: a key to look for, Redis's counters or wallet, or a short balance to check again. */
  async function admitAfterAwaits(request: MeteredRequest): Promise<BillingTicket> {
    const { principal } = request;
    const { limitSubjects } = await resolveAdmissionSubject(runtime, principal, request.clientIp);
    const hold = estimateHold(request);
    const admission = limitSubjects.length > 0 ? await rateLimiter.admit(limitSubjects, hold.inputTokens) : undefined;

    try {
      if (runtime.wallet) {
        await holdInWallet(request, hold.worstCost);
      } else {
        // A short balance waits for a check that started after the request arrived, so a top-up made a moment ago counts.
        if (shortfallOf(request, hold.worstCost) !== undefined)
          await runtime.refreshStartedAfter(request.receivedAt, shortBalanceCheckGapMs);
        holdInMemory(request, hold.worstCost);
      }
    } catch (error) {
      // Refused for money: the request used no tokens.
      admission?.release(0);
      throw error;
    }
    return ticketOf(request, hold, admission);
  }

  /** What a request holds: its worst case priced at its model's price and its group's ratio. */
  function estimateHold(request: MeteredRequest): HoldEstimate {
    const worst = estimateWorstCaseUsage(request, config.defaultMaxOutputTokens);
    // A model without a price is refused here, before any rate-limit slot, hold or vendor call.
    const price = requireModelPrice(memory, request.model, request.endpoint);
    const priceRatioMillionths = memory.priceRatioOf(request.principal.groupId);
    const worstCost = calculateRequestCost(worst.usage, price, holdPriceRatio(priceRatioMillionths, request));
    return { inputTokens: worst.inputTokens, price, priceRatioMillionths, worstCost };
  }

  function ticketOf(
    request: MeteredRequest,
    hold: HoldEstimate,
    admission: RateLimitAdmission | undefined,
  ): BillingTicket {
    return {
      responseHeaders: admission?.headers ?? {},
      request,
      held: hold.worstCost,
      price: hold.price,
      priceRatioMillionths: hold.priceRatioMillionths,
      inputTokens: hold.inputTokens,
      admission,
      closed: false,
    };
  }

  /** The database is behind: settled requests would pile up in memory, so new ones wait (503 with Retry-After). */
  function refuseWhileQueueIsFull(): void {
    if (!writer.isFull()) return;
    if (clock() - lastQueueFullWarningAt >= queueFullWarningGapMs) {
      lastQueueFullWarningAt = clock();
      logger.warn(
        { queuedRows: writer.queuedRows },
        'settlement queue full; refusing new requests until the database catches up',
      );
    }
    throw new GatewayError('service_unavailable', 'The gateway cannot record usage right now; retry later.', {
      headers: { 'retry-after': String(writer.retryAfterSeconds()) },
    });
  }

  /** One node: check and hold with no await in between, so concurrent requests can never both take the same money. */
  function holdInMemory(request: MeteredRequest, worstCost: number): void {
    const shortfall = shortfallOf(request, worstCost);
    if (shortfall !== undefined) throw new GatewayError('insufficient_quota', shortfall);
    takeHold(request, worstCost);
  }

  /** Several nodes: the key's cap is checked in memory, the balance by one atomic script in Redis. */
  async function holdInWallet(request: MeteredRequest, worstCost: number): Promise<void> {
    const wallet = runtime.wallet!;
    const capShortfall = capShortfallOf(request, worstCost);
    if (capShortfall !== undefined) throw new GatewayError('insufficient_quota', capShortfall);
    takeHold(request, worstCost);
    try {
      const userId = request.principal.userId;
      // A wallet Redis lost is created again from the database inside `hold`; `missing` means no such user.
      const walletKey = {
        apiKeyId: request.principal.apiKeyId,
        spendingCap: memory.key(request.principal.apiKeyId)?.spendingCap ?? null,
      };
      let outcome = await wallet.hold(userId, worstCost, walletKey);
      if (outcome === 'insufficient' || outcome === 'debt') {
        await runtime.refreshStartedAfter(request.receivedAt, shortBalanceCheckGapMs);
        outcome = await wallet.hold(userId, worstCost, walletKey);
      }
      if (outcome === 'debt') throw new GatewayError('insufficient_quota', debtMessage(memory.user(userId).debt));
      // The key's spend on every node (its cap is global with Redis), not only this node's.
      if (outcome === 'cap') throw new GatewayError('insufficient_quota', keyCapMessage);
      if (outcome !== 'held') throw new GatewayError('insufficient_quota', balanceShortfallMessage);
    } catch (error) {
      releaseHold(request, worstCost);
      // Without the shared wallet (or the database behind a missing copy) no node can know what is spendable: refuse
      // with 503 and Retry-After rather than risk an overdraft. Nothing was held, so nothing is charged.
      if (error instanceof StoreUnavailableError) {
        logWalletFailure(
          error.cause,
          `holding in the shared wallet failed (${error.store} unavailable); requests that need it get 503`,
        );
        throw error;
      }
      if (error instanceof GatewayError) throw error;
      logWalletFailure(error, 'holding in redis failed');
      throw new GatewayError('service_unavailable', 'The gateway cannot check balances right now; retry later.', {
        headers: { 'retry-after': String(storeRetryAfterSeconds) },
      });
    }
  }

  function takeHold(request: MeteredRequest, amount: number): void {
    holds.take(amount);
    memory.user(request.principal.userId).held += amount;
    const key = memory.key(request.principal.apiKeyId);
    if (key) key.held += amount;
  }

  function releaseHold(request: MeteredRequest, amount: number): void {
    holds.release(amount);
    memory.user(request.principal.userId).held -= amount;
    const key = memory.key(request.principal.apiKeyId);
    if (key) key.held -= amount;
  }

  function capShortfallOf(request: MeteredRequest, worstCost: number): string | undefined {
    const key = memory.key(request.principal.apiKeyId);
    if (key && key.spendingCap !== null && key.spent + key.held + worstCost > key.spendingCap) {
      return keyCapMessage;
    }
    return undefined;
  }

  function shortfallOf(request: MeteredRequest, worstCost: number): string | undefined {
    const user = memory.user(request.principal.userId);
    // Nothing is forgiven: while a debt stands, no request is admitted, whatever the balance.
    if (user.debt > 0) return debtMessage(user.debt);
    if (user.balance - user.held < worstCost) return balanceShortfallMessage;
    return capShortfallOf(request, worstCost);
  }

  return {
    checkBeforeBody: (request) => countingEarlyRefusals(request, checkAdmissionBeforeBody(runtime, request)),
    admitUnbilled: (request) => countingEarlyRefusals(request, admitUnbilledRequest(runtime, request)),
    countRefusal: (refusal) => writer.countRefusal(refusal),

    open(request) {
      const recordIfRefused = (error: unknown, reason?: RefusalReason): never => {
        if (error instanceof GatewayError) {
          recordRejection(request, error);
          refusals?.count(reason ?? refusalReasonOf(error));
        }
        throw error;
      };
      try {
        refuseWhileQueueIsFull();
      } catch (error) {
        return recordIfRefused(error, 'settlement_queue_full');
      }
      try {
        const ticket = admitAtOnce(request);
        if (ticket) return ticket;
      } catch (error) {
        return recordIfRefused(error);
      }
      return admitAfterAwaits(request).catch(recordIfRefused);
    },

    close(ticket, result) {
      const billingTicket = ticket as BillingTicket;
      if (billingTicket.closed) return;
      billingTicket.closed = true;
      try {
        settle(billingTicket, result);
      } catch (error) {
        logger.error({ err: error }, 'settling a request failed');
      }
    },
  };

  /**
   * Settles a closed request. An answer without vendor usage is counted in the tokenizer worker first; its hold stays
   * taken until then, and the settlement is tracked so shutdown and the tests' settlement waits include it.
   */
  function settle(ticket: BillingTicket, result: MeteredResult): void {
    const answerText = findUncountedAnswerText(ticket.request, result);
    if (answerText === undefined) {
      const walletSettlement = settleMeasured(ticket, result, undefined);
      if (walletSettlement) runtime.trackSettlement(walletSettlement);
      return;
    }
    const counted = runtime.tokenCounter
      .count([answerText])
      .then(([answerTextTokens]) => settleMeasured(ticket, result, answerTextTokens ?? 0));
    runtime.trackSettlement(
      counted.catch((error: unknown) => logger.error({ err: error }, 'settling a request failed')),
    );
  }

  /** Releases the hold and charges what the request used; returns the Redis settlement still under way, if any. */
  function settleMeasured(
    ticket: BillingTicket,
    result: MeteredResult,
    answerTextTokens: number | undefined,
  ): Promise<void> | undefined {
    const { request } = ticket;
    releaseHold(request, ticket.held);
    // Usage unknown though the vendor worked (an abandoned stream cut before its usage): the hold's worst case is charged.
    const holdUsage = result.usageUnknown
      ? estimateWorstCaseUsage(request, config.defaultMaxOutputTokens).usage
      : undefined;
    const usage = measureBillableUsage(request, result, ticket.inputTokens, ticket.price, answerTextTokens, holdUsage);
    // The cost is computed from exactly the pricing the usage log keeps, so the log's breakdown always adds up to it.
    const pricing = priceRequest(
      usage,
      ticket.price,
      settlementPriceRatio(ticket.priceRatioMillionths, request, result.channelId),
    );
    const cost = costOfPricing(
      {
        promptTokens: usage.promptTokens,
        cachedTokens: usage.cachedPromptTokens,
        cacheWriteTokens: usage.cacheWritePromptTokens,
        cacheWriteOneHourTokens: usage.cacheWriteOneHourPromptTokens,
        completionTokens: usage.completionTokens,
      },
      pricing,
    );
    ticket.admission?.release(usage.promptTokens + usage.completionTokens);
    result.onSettled?.(cost);
    const user = memory.user(request.principal.userId);
    // Usage above the estimate (a vendor counting more than estimated) may never push a balance below zero:
    // what the balance cannot cover becomes debt.
    const memoryCharge = Math.max(0, Math.min(cost, user.balance - user.held));
    const wallet = runtime.wallet;
    if (!wallet) {
      record(ticket, result, usage, { cost, pricing }, memoryCharge);
      return undefined;
    }
    return wallet
      .settle(request.principal.userId, ticket.held, cost, request.principal.apiKeyId, (walletSettlement) =>
        record(ticket, result, usage, { cost, pricing }, walletSettlement?.charged ?? memoryCharge),
      )
      .catch((error: unknown) =>
        logWalletFailure(
          error,
          'settling in redis failed; charged from memory (the wallet copy heals at the next reconciliation)',
        ),
      );
  }

  /** Charges `charge` (what the balance covered) and records the rest of `cost` as the user's debt. */
  function record(
    ticket: BillingTicket,
    result: MeteredResult,
    usage: BillableUsage,
    { cost, pricing }: { cost: number; pricing: RequestPricing },
    charge: number,
  ): void {
    const { request } = ticket;
    const debt = cost - charge;
    if (debt > 0)
      logger.warn(
        { userId: request.principal.userId, cost, charge, debt },
        'request cost more than the balance could cover; the rest is recorded as debt',
      );
    const user = memory.user(request.principal.userId);
    user.balance -= charge;
    user.debt += debt;
    const key = memory.key(request.principal.apiKeyId);
    if (key) key.spent += cost;
    const usageLog = createUsageLog(request, {
      status: result.status,
      errorCode: result.errorCode,
      finishedAt: result.finishedAt,
      channelId: result.channelId,
      firstByteAt: result.firstByteAt,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cachedTokens: usage.cachedPromptTokens,
      cacheWriteTokens: usage.cacheWritePromptTokens,
      cacheWriteOneHourTokens: usage.cacheWriteOneHourPromptTokens,
      cost,
      pricing,
    });
    // What the balance covered and what became debt; the writer makes the ledger row from the log when it writes.
    writer.enqueue(usageLog, cost > 0 ? { amount: charge, debt } : undefined);
  }
}

interface UsageLogDetails {
  status: number;
  errorCode: string | undefined;
  finishedAt: number;
  channelId?: string | undefined;
  firstByteAt?: number | undefined;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  cacheWriteOneHourTokens?: number;
  cost?: number;
  /** what the cost was computed from; absent for requests refused before they were priced */
  pricing?: RequestPricing;
}

function createUsageLog(request: MeteredRequest, details: UsageLogDetails): UsageLogRecord {
  return {
    id: createRecordId('use'),
    createdAt: request.receivedAt,
    userId: request.principal.userId,
    apiKeyId: request.principal.apiKeyId,
    model: request.model.id,
    channelId: details.channelId ?? null,
    endpoint: request.endpoint,
    promptTokens: details.promptTokens ?? 0,
    completionTokens: details.completionTokens ?? 0,
    cachedTokens: details.cachedTokens ?? 0,
    cacheWriteTokens: details.cacheWriteTokens ?? 0,
    cacheWriteOneHourTokens: details.cacheWriteOneHourTokens ?? 0,
    cost: details.cost ?? 0,
    status: details.status,
    errorCode: details.errorCode ?? null,
    latencyMs: Math.max(0, details.finishedAt - request.receivedAt),
    firstTokenMs: details.firstByteAt === undefined ? null : Math.max(0, details.firstByteAt - request.receivedAt),
    streamed: request.streamed,
    clientIp: request.clientIp,
    requestId: request.requestId ?? null,
    pricing: details.pricing ?? null,
  };
}
