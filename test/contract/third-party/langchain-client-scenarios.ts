// LangChain JS 1 through the gateway: ChatOpenAI (chat completions and its Responses mode) and ChatAnthropic, each
// with invoke, stream, bindTools with a tool round trip, and withStructuredOutput.
import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  thirdPartyModel,
  type ThirdPartyClientContext,
  type ThirdPartyClientScenario,
} from './third-party-client-context.js';

/** A LangChain chat model over the gateway, with the structured-output method it uses by default. */
interface LangChainModel {
  name: string;
  create(context: ThirdPartyClientContext): BaseChatModel;
  /**
   * The default `withStructuredOutput` method: ChatOpenAI asks for a JSON schema (the simulators answer
   * `{echo: <text>}`), ChatAnthropic forces a tool call (the simulators call a tool with `{query: <text>}`).
   */
  defaultStructuredOutput: 'jsonSchema' | 'functionCalling';
}

const models: LangChainModel[] = [
  {
    name: 'ChatOpenAI',
    create: (context) =>
      new ChatOpenAI({
        model: thirdPartyModel,
        apiKey: context.apiKey,
        configuration: { baseURL: context.gateway.baseURL },
        maxRetries: 0,
      }),
    defaultStructuredOutput: 'jsonSchema',
  },
  {
    name: 'ChatOpenAI (useResponsesApi)',
    create: (context) =>
      new ChatOpenAI({
        model: thirdPartyModel,
        apiKey: context.apiKey,
        configuration: { baseURL: context.gateway.baseURL },
        useResponsesApi: true,
        maxRetries: 0,
      }),
    defaultStructuredOutput: 'jsonSchema',
  },
  {
    name: 'ChatAnthropic',
    create: (context) =>
      new ChatAnthropic({
        model: thirdPartyModel,
        apiKey: context.apiKey,
        anthropicApiUrl: context.gateway.url,
        maxRetries: 0,
      }),
    defaultStructuredOutput: 'functionCalling',
  },
];

const weatherTool = tool(({ query }: { query: string }) => Promise.resolve(`sunny (${query})`), {
  name: 'get_weather',
  description: 'Weather for a city',
  schema: z.object({ query: z.string() }),
});

/** The text of a LangChain answer, whether its content is a string or blocks. */
function textOf(message: BaseMessage): string {
  return typeof message.content === 'string' ? message.content : message.text;
}

function scenariosOf(model: LangChainModel): ThirdPartyClientScenario[] {
  return [
    {
      name: `${model.name}: invoke`,
      async run(context) {
        const answer = await model.create(context).invoke('hello there');
        expect(textOf(answer)).toBe('Echo: hello there');
      },
    },
    {
      name: `${model.name}: stream`,
      async run(context) {
        const pieces: string[] = [];
        for await (const chunk of await model.create(context).stream('stream these words')) pieces.push(textOf(chunk));
        expect(pieces.join('')).toBe('Echo: stream these words');
        expect(pieces.filter((piece) => piece !== '').length).toBeGreaterThan(1);
      },
    },
    {
      name: `${model.name}: bindTools with a tool call and its result`,
      async run(context) {
        const chat = model.create(context);
        if (!chat.bindTools) throw new Error(`${model.name} has no bindTools`);
        const withTools = chat.bindTools([weatherTool]);
        const history: BaseMessage[] = [new HumanMessage('weather in Paris')];
        const first = await withTools.invoke(history);
        expect(first).toBeInstanceOf(AIMessage);
        const calls = (first as AIMessage).tool_calls ?? [];
        expect(calls.map((call) => [call.name, call.args])).toEqual([['get_weather', { query: 'weather in Paris' }]]);
        const results = await Promise.all(
          calls.map(async (call) => {
            const result: unknown = await weatherTool.invoke(call.args as { query: string });
            return new ToolMessage({ tool_call_id: call.id ?? '', content: String(result) });
          }),
        );
        const second = await withTools.invoke([...history, first, ...results]);
        expect(textOf(second)).toContain('sunny (weather in Paris)');
      },
    },
    {
      name: `${model.name}: withStructuredOutput (its default method, ${model.defaultStructuredOutput})`,
      async run(context) {
        const chat = model.create(context);
        if (model.defaultStructuredOutput === 'jsonSchema') {
          const parsed = await chat.withStructuredOutput(z.object({ echo: z.string() })).invoke('answer in JSON');
          expect(parsed).toEqual({ echo: 'answer in JSON' });
          return;
        }
        const parsed = await chat.withStructuredOutput(z.object({ query: z.string() })).invoke('answer in JSON');
        expect(parsed).toEqual({ query: 'answer in JSON' });
      },
    },
    {
      name: `${model.name}: withStructuredOutput (method jsonSchema)`,
      async run(context) {
        const parsed = await model
          .create(context)
          .withStructuredOutput(z.object({ echo: z.string() }), { method: 'jsonSchema' })
          .invoke('a JSON schema answer');
        expect(parsed).toEqual({ echo: 'a JSON schema answer' });
      },
    },
  ];
}

/** Every LangChain scenario, model by model. */
export const langChainClientScenarios: ThirdPartyClientScenario[] = models.flatMap(scenariosOf);
