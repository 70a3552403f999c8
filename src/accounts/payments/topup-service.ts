import type { Logger } from 'pino';
import type { BillingRuntime } from '../../billing/billing-runtime.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import { createRecordId } from '../../core/create-record-id.js';
import { GatewayError } from '../../core/gateway-error.js';
import type {
  OrderReversal,
  PaymentMethod,
  TopupOrderFilter,
  TopupOrderRecord,
} from '../../storage/topup-order-records.js';
import type { TopupOrderStore } from '../../storage/topup-order-store.js';
import type { AlipayPaymentProvider } from './alipay/alipay-payment-provider.js';
import type { PaymentConfig } from './payment-config.js';
import type { StripePaymentProvider } from './stripe/stripe-payment-provider.js';
import type { PaymentInstruction, PaymentProvider, PaymentReport } from './payment-provider.js';
import { computeTopupBonus, quoteTopup, type TopupQuote } from './quote-topup.js';
import { TopupOrderLimits } from './topup-order-limits.js';

/** What applying a provider report did to its order. */
export type ReportOutcome =
  | 'credited'
  | 'unchanged'
  | 'failed'
  | 'expired'
  | 'pending'
  | 'amount-mismatch'
  | 'unknown-order'
  | 'reversed'
  | 'restored'
  | 'not-paid'
  | 'currency-mismatch';

/** Pending orders one reconciliation pass re-checks at most, shared fairly between users. */
const sweepBatchSize = 200;

/** The methods, presets, minimum and bonus rule the console shows before a top-up. */
export interface TopupOptions {
  methods: Array<{
    method: PaymentMethod;
    currency: string;
    unitsPerCurrencyUnit: string;
    kind: PaymentInstruction['kind'];
  }>;
  presets: string[];
  minimum: string;
  bonus: {
    percent: string;
    fixed: string;
    cap: string | null;
    paidTopUpsOnly: true;
    firstTopUpOnly: true;
    eligible: boolean;
  };
}

/** What the top-up service is built from. */
export interface TopupServiceOptions {
  config: PaymentConfig;
  store: TopupOrderStore;
  billing: BillingRuntime;
  /** present when Stripe is configured */
  stripe?: StripePaymentProvider;
  /** present when Alipay is configured */
  alipay?: AlipayPaymentProvider;
  logger: Logger;
  /** Unix milliseconds */
  clock: () => number;
}

/**
 * Top-up orders end to end: quotes and creates orders, starts the provider's checkout, applies verified provider
 * reports (credit exactly once, through the billing store's credit path), reconciles pending orders.
 */
export class TopupService {
  private readonly providers: Map<PaymentMethod, PaymentProvider>;
  private sweepTimer: NodeJS.Timeout | undefined;
  private runningSweep: Promise<void> | undefined;
  private listeningUrl = 'http://127.0.0.1';
  private readonly orderLimits: TopupOrderLimits;

  constructor(readonly options: TopupServiceOptions) {
    this.orderLimits = new TopupOrderLimits(options.config, options.store);
    const providers: PaymentProvider[] = [options.stripe, options.alipay].filter((provider) => provider !== undefined);
    this.providers = new Map(providers.map((provider) => [provider.method, provider]));
  }

  /** The address the gateway listens on, used for notify and return URLs when GATEWAY_PUBLIC_URL is unset. */
  useListeningUrl(url: string): void {
    this.listeningUrl = url.replace(/\/+$/, '');
  }

  /** where providers and browsers reach this gateway */
  get publicUrl(): string {
    return this.options.config.publicUrl ?? this.listeningUrl;
  }

  /** the configured provider of a method, or undefined */
  provider(method: PaymentMethod): PaymentProvider | undefined {
    return this.providers.get(method);
  }

  /** one order, or undefined */
  findOrder(orderId: string): Promise<TopupOrderRecord | undefined> {
    return this.options.store.findOrder(orderId);
  }

  /** orders newest first, filtered (a user's own, or any for admins) */
  listOrders(filter: TopupOrderFilter): Promise<TopupOrderRecord[]> {
    return this.options.store.listOrders(filter);
  }

  /** The console's top-up options for a user (whether they still qualify for the first-top-up bonus). */
  async topupOptions(userId: string | undefined): Promise<TopupOptions> {
    const { config } = this.options;
    const eligible = userId === undefined ? false : !(await this.hasPaidOrder(userId));
    return {
      methods: [...this.providers.values()].map((provider) => ({
        method: provider.method,
        currency: provider.currency,
        unitsPerCurrencyUnit: trimZeros(formatMicroUnits(provider.microUnitsPerCurrencyUnit)),
        kind: provider.method === 'alipay' && config.alipay?.mode === 'qr' ? 'qr' : 'redirect',
      })),
      presets: config.presetsMicroUnits.map((amount) => trimZeros(formatMicroUnits(amount))),
      minimum: trimZeros(formatMicroUnits(config.minimumMicroUnits)),
      bonus: {
        percent: trimZeros(formatMicroUnits(config.bonus.percentMillionths)),
        fixed: trimZeros(formatMicroUnits(config.bonus.fixedMicroUnits)),
        cap: config.bonus.capMicroUnits > 0 ? trimZeros(formatMicroUnits(config.bonus.capMicroUnits)) : null,
        paidTopUpsOnly: true,
        firstTopUpOnly: true,
        eligible,
      },
    };
  }

  /**
   * Creates a pending order for `amount` units (decimal string or number) and starts the provider's checkout. A user
   * with too many pending orders, or a user or client address creating orders too fast, gets 429 before any provider
   * call (`clientAddress` is the proxy-aware address of the request).
   */
  async createOrder(
    userId: string,
    method: PaymentMethod,
    amount: string | number,
    clientAddress: string,
  ): Promise<{ order: TopupOrderRecord; instruction: PaymentInstruction }> {
    const provider = this.providers.get(method);
    if (!provider)
      throw new GatewayError('invalid_request_error', `The payment method ${method} is not configured.`, {
        param: 'method',
      });
    let requested: number;
    try {
      requested = parseCurrencyAmount(typeof amount === 'number' ? String(amount) : amount);
    } catch (error) {
      throw new GatewayError('invalid_request_error', error instanceof Error ? error.message : 'Invalid amount', {
        param: 'amount',
      });
    }
    const { config, clock } = this.options;
    if (requested < config.minimumMicroUnits)
      throw new GatewayError(
        'invalid_request_error',
        `The smallest top-up is ${trimZeros(formatMicroUnits(config.minimumMicroUnits))}.`,
        { param: 'amount' },
      );
    const quote = quoteTopup(requested, provider);
    await this.orderLimits.takeOrderSlot(userId, clientAddress);
    const order = await this.orderLimits.withUserTurn(userId, async () => {
      await this.orderLimits.refuseTooManyPending(userId);
      return this.recordPendingOrder(userId, provider, quote);
    });
    return this.startCheckout(order, provider);
  }

  /** Records a new pending order of the quote, with the first-top-up bonus when the user has never paid. */
  private async recordPendingOrder(
    userId: string,
    provider: PaymentProvider,
    quote: TopupQuote,
  ): Promise<TopupOrderRecord> {
    const { config, clock } = this.options;
    const now = clock();
    const eligible = !(await this.hasPaidOrder(userId));
    const order: TopupOrderRecord = {
      id: createRecordId('top', now),
      userId,
      method: provider.method,
      status: 'pending',
      amountPaidMinor: quote.amountPaidMinor,
      currency: provider.currency,
      creditMicroUnits: quote.creditMicroUnits,
      bonusMicroUnits: eligible ? computeTopupBonus(quote.creditMicroUnits, config.bonus) : 0,
      providerReference: null,
      failureReason: null,
      createdAt: now,
      paidAt: null,
      updatedAt: now,
      refundedMinor: 0,
      reversedCreditMicroUnits: 0,
      reversedBonusMicroUnits: 0,
    };
    await this.options.store.createOrder(order);
    return order;
  }

  /** Starts the provider's checkout of a recorded order; a refusal fails the order. */
  private async startCheckout(
    order: TopupOrderRecord,
    provider: PaymentProvider,
  ): Promise<{ order: TopupOrderRecord; instruction: PaymentInstruction }> {
    const { method } = order;
    const { clock } = this.options;
    let started;
    try {
      started = await provider.startCheckout(order, {
        notifyUrl: `${this.publicUrl}/api/payments/${method}/${method === 'stripe' ? 'webhook' : 'notify'}`,
        returnUrl: `${this.publicUrl}/top-up/return?order=${encodeURIComponent(order.id)}`,
      });
    } catch (error) {
      this.options.logger.error({ err: error, orderId: order.id, method }, 'starting a checkout failed');
      await this.options.store.transitionOrder(order.id, ['pending'], 'failed', {
        failureReason: 'the provider refused to start the checkout',
        now: clock(),
      });
      throw new GatewayError(
        'server_error',
        `The payment provider (${method}) could not start the checkout; try again later.`,
      );
    }
    if (started.providerReference !== null)
      await this.options.store.setProviderReference(order.id, started.providerReference, clock());
    return { order: { ...order, providerReference: started.providerReference }, instruction: started.instruction };
  }

  /**
   * Applies what a verified provider message or query says: `paid` credits once (amount and currency checked against
   * the order), `failed`/`expired` end a pending order; anything else, or a repeat, changes nothing.
   */
  async applyReport(report: PaymentReport, method: PaymentMethod): Promise<ReportOutcome> {
    const { store, logger, clock } = this.options;
    const order = await store.findOrder(report.orderId);
    if (!order || order.method !== method) {
      logger.warn({ orderId: report.orderId, method }, 'a payment message names an order this gateway does not have');
      return 'unknown-order';
    }
    switch (report.outcome) {
      case 'paid': {
        if (report.amountPaidMinor !== order.amountPaidMinor || report.currency.toLowerCase() !== order.currency) {
          logger.error(
            {
              orderId: order.id,
              reported: { amount: report.amountPaidMinor, currency: report.currency },
              expected: { amount: order.amountPaidMinor, currency: order.currency },
            },
            'payment amount does not match the order; not credited',
          );
          const reason = `amount mismatch: the provider reported ${report.amountPaidMinor} ${report.currency}, the order is ${order.amountPaidMinor} ${order.currency}`;
          await store.transitionOrder(order.id, ['pending', 'expired'], 'failed', {
            failureReason: reason,
            now: clock(),
          });
          return 'amount-mismatch';
        }
        return this.fulfil(order.id, report.providerReference);
      }
      case 'failed':
      case 'expired': {
        const changed = await store.transitionOrder(order.id, ['pending'], report.outcome, {
          failureReason: report.reason,
          now: clock(),
        });
        return changed ? report.outcome : 'unchanged';
      }
      case 'pending':
        if (report.providerReference !== null && order.providerReference === null)
          await store.setProviderReference(order.id, report.providerReference, clock());
        return 'pending';
      case 'refunded':
        return this.reverse(order.id, {
          kind: 'refund',
          method,
          eventId: report.eventId,
          refundedMinor: report.refundedMinor,
          currency: report.currency,
        });
      case 'disputed':
        return this.reverse(order.id, {
          kind: 'dispute',
          method,
          eventId: report.eventId,
          disputeId: report.disputeId,
          amountMinor: report.amountMinor,
          currency: report.currency,
          status: report.disputeStatus,
        });
      default: {
        const unreachable: never = report;
        throw new Error(`unknown report ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Asks the provider about an order and applies the answer (admin re-check and the sweeper). */
  async recheck(order: TopupOrderRecord): Promise<{ report: PaymentReport; outcome: ReportOutcome }> {
    const provider = this.providers.get(order.method);
    if (!provider)
      throw new GatewayError('invalid_request_error', `The payment method ${order.method} is not configured any more.`);
    const report = await provider.queryOrder(order);
    return { report, outcome: await this.applyReport(report, order.method) };
  }

  /** One reconciliation pass: re-queries pending orders older than the reconcile age, expires those past their lifetime. */
  async sweep(): Promise<void> {
    const { config, store, logger, clock } = this.options;
    const now = clock();
    const pending = await store.listPendingOrdersBefore(
      now - config.reconcileAfterMs,
      sweepBatchSize,
      config.sweepOrdersPerUser,
    );
    for (const order of pending) {
      try {
        const { outcome } = await this.recheck(order);
        if (outcome === 'pending' && order.createdAt <= now - config.orderLifetimeMs) {
          await store.transitionOrder(order.id, ['pending'], 'expired', {
            failureReason: 'not paid within the order lifetime',
            now: clock(),
          });
        }
      } catch (error) {
        logger.warn({ err: error, orderId: order.id }, 'reconciling a top-up order failed');
      }
    }
  }

  /** Starts the periodic sweeper (no-op when the interval is 0). */
  startSweeper(): void {
    const interval = this.options.config.sweepIntervalMs;
    if (interval <= 0 || this.sweepTimer) return;
    this.sweepTimer = setInterval(() => {
      if (this.runningSweep) return;
      this.runningSweep = this.sweep()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'top-up reconciliation failed'))
        .finally(() => (this.runningSweep = undefined));
    }, interval);
    this.sweepTimer.unref();
  }

  /** Stops the sweeper and waits for a pass in progress. */
  async stopSweeper(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    await this.runningSweep;
  }

  private async fulfil(orderId: string, providerReference: string | null): Promise<ReportOutcome> {
    const { billing, store, clock, logger } = this.options;
    const result = await billing.exclusive(() => store.fulfilOrder(orderId, { providerReference, now: clock() }));
    if (result.outcome === 'unchanged') return 'unchanged';
    const { order } = result;
    logger.info(
      { orderId: order.id, userId: order.userId, credit: order.creditMicroUnits, bonus: order.bonusMicroUnits },
      'top-up credited',
    );
    // The node's memory and the shared wallet learn the new balance, as after an admin credit.
    await billing.wallet?.apply({
      userId: order.userId,
      balance: result.balance,
      debt: result.debt,
      sequence: result.sequence,
    });
    await billing.announceChange();
    return 'credited';
  }

  /**
   * Applies a refund or dispute in one transaction (see TopupOrderStore.reverseOrder); then this node's memory and
   * the shared wallet learn the new balance and debt, as after a credit, so a debt stops spending on every node.
   */
  private async reverse(orderId: string, reversal: OrderReversal): Promise<ReportOutcome> {
    const { billing, store, clock, logger } = this.options;
    const result = await billing.exclusive(() => store.reverseOrder(orderId, reversal, { now: clock() }));
    switch (result.outcome) {
      case 'unknown-order':
        logger.warn(
          { orderId, method: reversal.method },
          'a refund or dispute names an order this gateway does not have',
        );
        return result.outcome;
      case 'not-paid':
        logger.warn(
          { orderId, method: reversal.method, status: result.order.status },
          'a refund or dispute names an order that was never paid; nothing taken back',
        );
        return result.outcome;
      case 'currency-mismatch':
        logger.error(
          { orderId, method: reversal.method, reported: reversal.currency, expected: result.order.currency },
          'a refund or dispute is in another currency than the order; nothing taken back',
        );
        return result.outcome;
      case 'unchanged':
        // A repeat, or a status-only change (a dispute of an amount already refunded): no money moved.
        return result.outcome;
      case 'reversed':
      case 'restored':
        logger.warn(
          {
            orderId,
            userId: result.order.userId,
            kind: reversal.kind,
            event: reversal.eventId,
            status: result.order.status,
            creditChange: result.creditChange,
            bonusChange: result.bonusChange,
            balance: result.balance,
            debt: result.debt,
          },
          result.outcome === 'reversed'
            ? 'top-up reversed: credit taken back'
            : 'top-up reversal undone: credit given back',
        );
        await billing.wallet
          ?.apply({
            userId: result.order.userId,
            balance: result.balance,
            debt: result.debt,
            sequence: result.sequence,
          })
          .catch((error: unknown) => logger.warn({ err: error }, 'copying a reversal to redis failed'));
        await billing.announceChange();
        return result.outcome;
      default: {
        const unreachable: never = result;
        throw new Error(`unknown reversal result ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private hasPaidOrder(userId: string): Promise<boolean> {
    return this.options.store.hasPaidOrder(userId);
  }
}

function trimZeros(decimal: string): string {
  return decimal.replace(/\.?0+$/, '');
}
