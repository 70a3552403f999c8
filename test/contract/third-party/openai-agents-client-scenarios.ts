// The OpenAI Agents SDK (0.14) through the gateway: an Agent with one function tool run with run(), on its Responses
// model (the SDK's default) and on its chat completions model, each given an OpenAI client pointed at the gateway.
import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, run, tool, type Model } from '@openai/agents';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  thirdPartyModel,
  type ThirdPartyClientContext,
  type ThirdPartyClientScenario,
} from './third-party-client-context.js';

const agentModels: Array<{ name: string; create(client: OpenAI): Model }> = [
  { name: 'OpenAIResponsesModel', create: (client) => new OpenAIResponsesModel(client, thirdPartyModel) },
  { name: 'OpenAIChatCompletionsModel', create: (client) => new OpenAIChatCompletionsModel(client, thirdPartyModel) },
];

function gatewayClient(context: ThirdPartyClientContext): OpenAI {
  return new OpenAI({ apiKey: context.apiKey, baseURL: context.gateway.baseURL, maxRetries: 0, timeout: 20_000 });
}

function scenariosOf(agentModel: (typeof agentModels)[number]): ThirdPartyClientScenario[] {
  return [
    {
      name: `@openai/agents ${agentModel.name}: run() with a function tool`,
      async run(context) {
        const calls: string[] = [];
        const weather = tool({
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: z.object({ query: z.string() }),
          execute: ({ query }) => {
            calls.push(query);
            return Promise.resolve(`rainy in ${query}`);
          },
        });
        const agent = new Agent({
          name: 'Weather agent',
          instructions: 'Answer with the weather tool.',
          model: agentModel.create(gatewayClient(context)),
          tools: [weather],
        });
        const result = await run(agent, 'Paris', { maxTurns: 3 });
        expect(calls).toEqual(['Paris']);
        expect(result.finalOutput).toContain('rainy in Paris');
      },
    },
    {
      name: `@openai/agents ${agentModel.name}: run() streamed`,
      async run(context) {
        const agent = new Agent({
          name: 'Echo agent',
          instructions: 'Be brief.',
          model: agentModel.create(gatewayClient(context)),
        });
        const result = await run(agent, 'hello agent', { stream: true });
        const pieces: string[] = [];
        for await (const piece of result.toTextStream()) pieces.push(piece);
        await result.completed;
        expect(pieces.join('')).toBe('Echo: hello agent');
        expect(result.finalOutput).toBe('Echo: hello agent');
      },
    },
  ];
}

/** Every Agents SDK scenario, model by model. */
export const openAiAgentsClientScenarios: ThirdPartyClientScenario[] = agentModels.flatMap(scenariosOf);
