// Real third-party clients against every vendor target: the Vercel AI SDK, LangChain JS and the OpenAI Agents SDK,
// each making the calls applications make, through a gateway per target with its simulator behind it. No network:
// every client gets the gateway's loopback URL and a gateway key; the Agents SDK's tracing is off, the others have
// none unless asked. @ai-sdk/google speaks Gemini's own API (/v1beta) to the gateway.
import { setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTargets } from './contract-targets.js';
import { aiSdkClientScenarios } from './third-party/ai-sdk-client-scenarios.js';
import { aiSdkGoogleClientScenarios } from './third-party/ai-sdk-google-client-scenarios.js';
import { langChainClientScenarios } from './third-party/langchain-client-scenarios.js';
import { openAiAgentsClientScenarios } from './third-party/openai-agents-client-scenarios.js';
import {
  startThirdPartyClientContext,
  type ThirdPartyClientContext,
} from './third-party/third-party-client-context.js';

setTracingDisabled(true);

/** Calls a vendor cannot serve at all (the matrix lists the same): not registered, listed with the gaps. */
const noEmbeddings = 'the vendor has no embeddings API behind this adapter (the matrix lists the same)';
const vendorCannot: Record<string, Record<string, string>> = {
  'anthropic (2023-06-01)': {
    '@ai-sdk/openai embedding: embedMany': noEmbeddings,
    '@ai-sdk/google embedding: embedMany': noEmbeddings,
  },
  'anthropic (2026-10-21)': {
    '@ai-sdk/openai embedding: embedMany': noEmbeddings,
    '@ai-sdk/google embedding: embedMany': noEmbeddings,
  },
  'vertex (claude)': {
    '@ai-sdk/openai embedding: embedMany': noEmbeddings,
    '@ai-sdk/google embedding: embedMany': noEmbeddings,
  },
  bedrock: {
    '@ai-sdk/openai embedding: embedMany': noEmbeddings,
    '@ai-sdk/google embedding: embedMany': noEmbeddings,
  },
};

/**
 * Calls that fail today because of the gateway, per target (scenario name → the failing request and answer): they are
 * not registered, and the first test of the target's block lists them so they stay visible. Empty it as they are fixed.
 */
const knownGatewayGaps: Record<string, Record<string, string>> = {};

const clients = {
  'Vercel AI SDK': aiSdkClientScenarios,
  'Vercel AI SDK (@ai-sdk/google)': aiSdkGoogleClientScenarios,
  'LangChain JS': langChainClientScenarios,
  'OpenAI Agents SDK': openAiAgentsClientScenarios,
};

// CONTRACT_TARGET / CONTRACT_SCENARIO=<part of a name, `|` between several> narrow the run, as in the matrix.
const targetFilter = process.env.CONTRACT_TARGET;
const scenarioFilter = process.env.CONTRACT_SCENARIO;

for (const target of contractTargets.filter((candidate) => !targetFilter || candidate.name.includes(targetFilter))) {
  describe(`third-party clients: ${target.name}`, () => {
    let context: ThirdPartyClientContext | undefined;

    beforeAll(async () => {
      context = await startThirdPartyClientContext(target);
    });

    afterAll(async () => {
      await context?.gateway.close();
      await context?.upstream.close();
    });

    const gaps = { ...knownGatewayGaps[target.name], ...vendorCannot[target.name] };
    it('lists each call not run, with why (for a gateway gap: the failing request and answer)', () => {
      const known = new Set(Object.values(clients).flatMap((scenarios) => scenarios.map((scenario) => scenario.name)));
      for (const [name, reason] of Object.entries(gaps)) {
        expect(known.has(name), `unknown scenario '${name}'`).toBe(true);
        expect(reason.trim()).not.toBe('');
        console.info(`[third-party] ${target.name}: not run '${name}': ${reason}`);
      }
    });

    for (const [client, scenarios] of Object.entries(clients)) {
      describe(client, () => {
        for (const scenario of scenarios) {
          if (scenario.name in gaps) continue;
          if (scenarioFilter && !scenarioFilter.split('|').some((part) => scenario.name.includes(part))) continue;
          it(scenario.name, () => scenario.run(context as ThirdPartyClientContext));
        }
      });
    }
  });
}
