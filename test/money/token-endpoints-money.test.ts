// Money matrix, token slice: chat, completions, Responses and Messages × every vendor simulator × {non-streamed,
// streamed, client abort at a seeded random event}. Each case is charged exactly the price of the usage its vendor
// reported (cache reads, cache writes by TTL, reasoning), to the micro-unit: in the usage log, the balance and the
// ledger; a stream costs what the same answer costs whole, and a client that leaves costs the same again (the gateway
// reads the vendor's stream to its usage).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilledClient, waitForSettledLog } from '../billing/settled-request-helpers.js';
import { expectCharged } from './money-assertions.js';
import { listTokenCases, publicModelOf, usageVariants, type TokenEndpoint } from './money-cases.js';
import { expectedTokenCharge } from './money-price.js';
import { sendMoneyRequest } from './send-money-request.js';
import { startMoneyGateway, type MoneyGateway } from './start-money-gateway.js';

const startingBalance = 10_000_000;
/** The endpoint each client endpoint is logged under. */
const loggedEndpoint: Record<TokenEndpoint, string> = {
  chat: 'chat.completions',
  completions: 'completions',
  responses: 'responses',
  messages: 'messages',
};

let money: MoneyGateway;

beforeAll(async () => {
  money = await startMoneyGateway({
    channelSets: [
      usageVariants.map((variant) => ({
        publicModel: publicModelOf(variant),
        vendor: variant.vendor,
        vendorModel: variant.vendorModel,
      })),
    ],
    upstreamTimeoutMs: 5_000,
  });
});

afterAll(async () => {
  await money?.close();
});

describe.concurrent('the charge is the price of the vendor-reported usage, on every exit a token request has', () => {
  it.each(listTokenCases())('$name', async ({ endpoint, mode, variant, leaveAfterEvents }) => {
    const { gateway } = money;
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const answer = await sendMoneyRequest({
      baseUrl: gateway.url,
      secret: String(client.apiKey),
      endpoint,
      model: publicModelOf(variant),
      streamed: mode !== 'non-streamed',
      leaveAfterEvents: mode === 'client-abort' ? leaveAfterEvents : undefined,
      oneHourCacheTtl: variant.variant === 'cache-write-one-hour',
    });
    expect(answer.error).toBeUndefined();
    if (mode === 'client-abort') expect(answer.textEvents).toBe(leaveAfterEvents);
    else expect(answer.text).toContain('eight');

    const log = await waitForSettledLog(gateway, userId);
    const { usage } = variant;
    expect({
      endpoint: log.endpoint,
      streamed: log.streamed,
      status: log.status,
      errorCode: log.errorCode,
      promptTokens: log.promptTokens,
      cachedTokens: log.cachedTokens,
      cacheWriteTokens: log.cacheWriteTokens,
      cacheWriteOneHourTokens: log.cacheWriteOneHourTokens ?? 0,
      completionTokens: log.completionTokens,
    }).toEqual({
      endpoint: loggedEndpoint[endpoint],
      streamed: mode !== 'non-streamed',
      status: mode === 'client-abort' ? 499 : 200,
      errorCode: mode === 'client-abort' ? 'client_closed_request' : null,
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteFiveMinuteTokens + usage.cacheWriteOneHourTokens,
      cacheWriteOneHourTokens: usage.cacheWriteOneHourTokens,
      completionTokens: usage.outputTokens,
    });
    await expectCharged(gateway, log, startingBalance, expectedTokenCharge(usage));
  });
});
