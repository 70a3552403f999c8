// Helpers for billing tests that send one request per fresh user and read back what it was billed.
import type OpenAI from 'openai';
import { expect, vi } from 'vitest';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import type { BillingTestGateway } from './start-billing-test-gateway.js';
import { requestEstimateOf } from './request-estimate-of-body.js';

/** A new user with `startingBalance` and a key, and an OpenAI client on that key. */
export async function createBilledClient(
  gateway: BillingTestGateway,
  startingBalance: number,
): Promise<{ userId: string; client: OpenAI }> {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return { userId: user.id, client: gateway.client(key.secret) };
}

/**
 * The user's one usage log, once the gateway settled the request (a settlement waiting on a token count included) and
 * wrote it; with `startingBalance`, the balance must also have been charged exactly the log's cost.
 */
export async function waitForSettledLog(
  gateway: BillingTestGateway,
  userId: string,
  startingBalance?: number,
): Promise<UsageLogRecord> {
  const { billing } = gateway.running;
  return vi.waitFor(
    async () => {
      await billing.settlementsQueued();
      await billing.writer.flush();
      const logs = await billing.store.listUsageLogs({ userId, limit: 10 });
      expect(logs).toHaveLength(1);
      if (startingBalance !== undefined)
        expect(await billing.store.readBalance(userId)).toBe(startingBalance - logs[0]!.cost);
      return logs[0]!;
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** The input tokens accounting estimates at admission for a chat body (with a unit price, also their cost). */
export function estimatedChatInput(body: Record<string, unknown>): number {
  const request = {
    endpoint: 'chat.completions',
    estimate: requestEstimateOf('chat.completions', body),
    model: { id: String(body.model), maxOutputTokens: undefined },
  } as unknown as MeteredRequest;
  return estimateWorstCaseUsage(request).inputTokens;
}
