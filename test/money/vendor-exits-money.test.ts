// Money matrix, vendor exit slice: chat, Responses and Messages × every vendor simulator × {vendor error mid-stream,
// vendor timeout (silent mid-stream, or never answering)}. The documented rule (docs/BILLING.md, Settle and Failure):
// a stream the vendor cut after some text, without usage, is charged that text counted with the o200k tokenizer plus
// the estimated input; a vendor that never answered generated nothing and costs nothing (the hold is released).
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilledClient, estimatedChatInput, waitForSettledLog } from '../billing/settled-request-helpers.js';
import { expectCharged } from './money-assertions.js';
import { exitModelOf, listVendorExitCases, matrixPrompt } from './money-cases.js';
import { expectedInputOutputCharge } from './money-price.js';
import { matrixMaxTokens, sendMoneyRequest } from './send-money-request.js';
import { startMoneyGateway, type MoneyGateway } from './start-money-gateway.js';

const startingBalance = 10_000_000;
/** How long the gateway waits on a silent vendor (head or body): short, so the timeouts of the matrix are quick. */
const upstreamTimeoutMs = 600;
const cases = listVendorExitCases();

let money: MoneyGateway;

beforeAll(async () => {
  // Each exit model on its own channel, so one's failures never steer another's routing.
  money = await startMoneyGateway({
    channelSets: [
      ...new Map(
        cases.map((exit) => [
          exitModelOf(exit.vendor, exit.vendorModel),
          [
            {
              publicModel: exitModelOf(exit.vendor, exit.vendorModel),
              vendor: exit.vendor,
              vendorModel: exit.vendorModel,
            },
          ],
        ]),
      ).values(),
    ],
    upstreamTimeoutMs,
  });
});

afterAll(async () => {
  await money?.close();
});

describe.concurrent('a vendor that ends the answer early is charged by the documented rule', () => {
  it.each(cases)('$name', async ({ vendor, endpoint, streamed, vendorModel, charge }) => {
    const { gateway } = money;
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const model = exitModelOf(vendor, vendorModel);
    const answer = await sendMoneyRequest({
      baseUrl: gateway.url,
      secret: String(client.apiKey),
      endpoint,
      model,
      streamed,
    });
    expect(answer.error).toBeDefined();
    const log = await waitForSettledLog(gateway, userId);
    switch (charge) {
      case 'generated-text-and-estimated-input': {
        // The client got some text, then the protocol's error ending; the usage log keeps the vendor's error code.
        expect(answer.text.length).toBeGreaterThan(0);
        expect(answer.text).not.toContain('eight');
        const estimatedInput = estimatedChatInput({
          model,
          messages: [{ role: 'user', content: matrixPrompt }],
          max_tokens: matrixMaxTokens,
        });
        const generatedTokens = countTokens(answer.text);
        expect(log).toMatchObject({
          status: 200,
          streamed: true,
          promptTokens: estimatedInput,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          completionTokens: generatedTokens,
        });
        expect(log.errorCode).not.toBeNull();
        await expectCharged(gateway, log, startingBalance, expectedInputOutputCharge(estimatedInput, generatedTokens));
        break;
      }
      case 'nothing':
        expect(log).toMatchObject({ status: 504, errorCode: 'upstream_timeout', streamed, completionTokens: 0 });
        await expectCharged(gateway, log, startingBalance, 0);
        expect(gateway.running.billing.memory.user(userId).held).toBe(0);
        break;
      default: {
        const unreachable: never = charge;
        throw new Error(`unknown charge ${String(unreachable)}`);
      }
    }
  });
});
