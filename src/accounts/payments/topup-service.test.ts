import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingRuntime } from '../../billing/billing-runtime.js';
import { createLogger } from '../../observability/create-logger.js';
import type { TopupOrderStore } from '../../storage/topup-order-store.js';
import { loadPaymentConfig } from './payment-config.js';
import { TopupService } from './topup-service.js';

afterEach(() => {
  vi.useRealTimers();
});

function createService(
  sweepIntervalMs: number,
  listPendingOrdersBefore: TopupOrderStore['listPendingOrdersBefore'],
): TopupService {
  const store = { listPendingOrdersBefore } as unknown as TopupOrderStore;
  return new TopupService({
    config: { ...loadPaymentConfig({}), sweepIntervalMs },
    store,
    billing: {} as BillingRuntime,
    logger: createLogger('silent'),
    clock: Date.now,
  });
}

describe('the reconciliation sweeper', () => {
  it('runs once per interval while started and never after it is stopped', async () => {
    vi.useFakeTimers();
    const listPending = vi.fn<TopupOrderStore['listPendingOrdersBefore']>(async () => []);
    const service = createService(60_000, listPending);
    service.startSweeper();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(listPending).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(listPending).toHaveBeenCalledTimes(2);
    await service.stopSweeper();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(listPending).toHaveBeenCalledTimes(2);
  });

  it('asks for a batch of 200 with at most GATEWAY_TOPUP_SWEEP_ORDERS_PER_USER (10) of any one user', async () => {
    const listPending = vi.fn<TopupOrderStore['listPendingOrdersBefore']>(async () => []);
    await createService(0, listPending).sweep();
    expect(listPending).toHaveBeenCalledWith(expect.any(Number), 200, 10);
  });

  it('stays off with an interval of 0', async () => {
    vi.useFakeTimers();
    const listPending = vi.fn<TopupOrderStore['listPendingOrdersBefore']>(async () => []);
    const service = createService(0, listPending);
    service.startSweeper();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(listPending).not.toHaveBeenCalled();
    await service.stopSweeper();
  });
});

describe('notify and return URLs', () => {
  it('use GATEWAY_PUBLIC_URL when set, else the listening address', () => {
    const service = createService(0, async () => []);
    service.useListeningUrl('http://127.0.0.1:4321/');
    expect(service.publicUrl).toBe('http://127.0.0.1:4321');
    const configured = new TopupService({
      ...service.options,
      config: { ...service.options.config, publicUrl: 'https://gateway.example' },
    });
    configured.useListeningUrl('http://127.0.0.1:4321');
    expect(configured.publicUrl).toBe('https://gateway.example');
  });
});
