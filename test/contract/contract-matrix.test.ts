// The contract matrix: every named scenario × every client protocol (chat, Responses, Messages) × every vendor adapter,
// through a real gateway, with the official openai and @anthropic-ai/sdk clients. A scenario an adapter cannot support
// is not registered; it is listed (with its reason) by the first test of its block.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startImageServer } from '../helpers/start-image-server.js';
import { chatContractScenarios } from './chat-contract-scenarios.js';
import type { ContractContext, ContractScenario } from './contract-context.js';
import { contractModels } from './contract-context.js';
import { contractTargets, type ContractProtocol, type ContractTarget } from './contract-targets.js';
import { messagesContractScenarios } from './messages-contract-scenarios.js';
import { responsesContractScenarios } from './responses-contract-scenarios.js';
import { startContractGateway } from './start-contract-gateway.js';
import { structuredOutputContractScenarios } from './structured-output-contract-scenarios.js';
import { toolAndLimitContractScenarios } from './tool-and-limit-contract-scenarios.js';

const scenariosByProtocol: Record<ContractProtocol, ContractScenario[]> = {
  chat: [...chatContractScenarios, ...structuredOutputContractScenarios.chat, ...toolAndLimitContractScenarios.chat],
  responses: [
    ...responsesContractScenarios,
    ...structuredOutputContractScenarios.responses,
    ...toolAndLimitContractScenarios.responses,
  ],
  messages: [
    ...messagesContractScenarios,
    ...structuredOutputContractScenarios.messages,
    ...toolAndLimitContractScenarios.messages,
  ],
};

async function startContext(target: ContractTarget): Promise<ContractContext> {
  const upstream = await target.start();
  const images = await startImageServer();
  const gateway = await startContractGateway();
  const channel = {
    protocol: target.protocol,
    baseUrl: upstream.url,
    secret: upstream.secret,
    settings: target.settings,
  };
  await gateway.createChannel({
    ...channel,
    models: {
      [contractModels.chat]: target.normalModel,
      [contractModels.cache]: target.cacheModel,
      [contractModels.error400]: 'sim-error-400',
      [contractModels.error401]: 'sim-error-401',
      [contractModels.error429]: 'sim-error-429',
      [contractModels.error500]: 'sim-error-500',
      [contractModels.overloaded]: target.overloadedModel,
      [contractModels.brokenStream]: 'sim-broken-stream',
      [contractModels.streamErrorEvent]: 'sim-stream-error-event',
      [contractModels.hang]: 'sim-hang',
      [contractModels.failover]: target.normalModel,
      [contractModels.failoverEarly]: target.normalModel,
      [contractModels.embedding]: target.embeddingModel,
    },
  });
  // Tried first for the failover models: one fails with a status, the other breaks its stream before the first event.
  await gateway.createChannel({
    ...channel,
    priority: 10,
    models: {
      [contractModels.failover]: 'sim-error-500',
      [contractModels.failoverEarly]: 'sim-broken-before-first-event',
    },
  });
  const apiKey = await gateway.createKey();
  const client = new OpenAI({ apiKey, baseURL: gateway.baseURL, maxRetries: 0, timeout: 20_000 });
  const anthropic = new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0, timeout: 20_000 });
  return { target, gateway, upstream, client, anthropic, apiKey, images };
}

// CONTRACT_TARGET / CONTRACT_PROTOCOL / CONTRACT_SCENARIO=<part of a name, `|` between several> narrow the run.
const targetFilter = process.env.CONTRACT_TARGET;
const protocolFilter = process.env.CONTRACT_PROTOCOL;
const scenarioFilter = process.env.CONTRACT_SCENARIO;

for (const target of contractTargets.filter((candidate) => !targetFilter || candidate.name.includes(targetFilter))) {
  describe(`contract: ${target.name}`, () => {
    let context: ContractContext | undefined;

    beforeAll(async () => {
      context = await startContext(target);
    });

    afterAll(async () => {
      await context?.gateway.close();
      await context?.upstream.close();
      await context?.images.close();
    });

    for (const [protocol, scenarios] of Object.entries(scenariosByProtocol) as Array<
      [ContractProtocol, ContractScenario[]]
    >) {
      if (protocolFilter && protocol !== protocolFilter) continue;
      const unsupported = target.unsupportedScenarios[protocol] ?? {};
      describe(protocol, () => {
        it('lists each unsupported scenario with a reason', () => {
          const known = new Set(scenarios.map((scenario) => scenario.name));
          for (const [name, reason] of Object.entries(unsupported)) {
            expect(known.has(name), `unknown ${protocol} scenario '${name}'`).toBe(true);
            expect(reason.trim(), `reason for skipping '${name}'`).not.toBe('');
            console.info(`[contract] ${target.name} / ${protocol}: skipped '${name}': ${reason}`);
          }
        });

        for (const scenario of scenarios) {
          if (scenario.name in unsupported) continue;
          if (scenarioFilter && !scenarioFilter.split('|').some((part) => scenario.name.includes(part))) continue;
          it(scenario.name, () => scenario.run(context as ContractContext));
        }
      });
    }
  });
}
