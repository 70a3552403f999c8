// Sends one matrix request through the official SDKs, as a client would, and returns the text it received.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { TokenEndpoint } from './money-cases.js';
import { matrixPrompt } from './money-cases.js';

/** How a matrix request is sent. */
export interface MoneyRequest {
  baseUrl: string;
  secret: string;
  endpoint: TokenEndpoint;
  model: string;
  streamed: boolean;
  /** leave the stream after this many text events (undefined: read it to its end) */
  leaveAfterEvents?: number;
  /** mark the Messages prompt for the cache with a 1-hour TTL */
  oneHourCacheTtl?: boolean;
  /** the output allowance asked for (default matrixMaxTokens); null: none on chat and Responses (the gateway's default holds) */
  maxTokens?: number | null;
}

/** What the client saw: the text, how many text events, and the error that ended it, if any. */
export interface MoneyAnswer {
  text: string;
  textEvents: number;
  error: unknown;
}

/** The output allowance of every matrix request: far above the answers, so no answer is cut. */
export const matrixMaxTokens = 100;

/** Sends the request; a vendor failure is returned as `error`, a client abort is not an error. */
export async function sendMoneyRequest(request: MoneyRequest): Promise<MoneyAnswer> {
  const controller = new AbortController();
  const answer: MoneyAnswer = { text: '', textEvents: 0, error: undefined };
  /** counts a piece of text; true when the client leaves now */
  const receive = (piece: string | null | undefined): boolean => {
    if (!piece) return false;
    answer.text += piece;
    answer.textEvents++;
    if (request.leaveAfterEvents !== undefined && answer.textEvents >= request.leaveAfterEvents) {
      controller.abort();
      return true;
    }
    return false;
  };
  try {
    await sendWith(request, controller.signal, receive);
  } catch (error) {
    if (!controller.signal.aborted) answer.error = error;
  }
  return answer;
}

async function sendWith(
  request: MoneyRequest,
  signal: AbortSignal,
  receive: (piece: string | null | undefined) => boolean,
): Promise<void> {
  const openai = new OpenAI({
    apiKey: request.secret,
    baseURL: `${request.baseUrl}/v1`,
    maxRetries: 0,
    timeout: 20_000,
  });
  const { model } = request;
  const maxTokens = request.maxTokens === null ? undefined : (request.maxTokens ?? matrixMaxTokens);
  const chatLimit = maxTokens === undefined ? {} : { max_tokens: maxTokens };
  switch (request.endpoint) {
    case 'chat': {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: matrixPrompt }];
      if (!request.streamed) {
        const completion = await openai.chat.completions.create({ model, messages, ...chatLimit });
        receive(completion.choices[0]?.message.content);
        return;
      }
      const stream = await openai.chat.completions.create({ model, messages, ...chatLimit, stream: true }, { signal });
      for await (const chunk of stream) if (receive(chunk.choices[0]?.delta.content)) return;
      return;
    }
    case 'completions': {
      if (!request.streamed) {
        const completion = await openai.completions.create({
          model,
          prompt: matrixPrompt,
          max_tokens: matrixMaxTokens,
        });
        receive(completion.choices[0]?.text);
        return;
      }
      const stream = await openai.completions.create(
        { model, prompt: matrixPrompt, max_tokens: matrixMaxTokens, stream: true },
        { signal },
      );
      for await (const chunk of stream) if (receive(chunk.choices[0]?.text)) return;
      return;
    }
    case 'responses': {
      const body = {
        model,
        input: matrixPrompt,
        store: false,
        ...(maxTokens === undefined ? {} : { max_output_tokens: maxTokens }),
      };
      if (!request.streamed) {
        const response = await openai.responses.create(body);
        receive(response.output_text);
        return;
      }
      const stream = await openai.responses.create({ ...body, stream: true }, { signal });
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta' && receive(event.delta)) return;
        if (event.type === 'response.failed')
          throw new Error(`response.failed: ${JSON.stringify(event.response.error)}`);
      }
      return;
    }
    case 'messages': {
      const claude = new Anthropic({
        apiKey: request.secret,
        baseURL: request.baseUrl,
        maxRetries: 0,
        timeout: 20_000,
      });
      const content: Anthropic.TextBlockParam[] = [
        {
          type: 'text',
          text: matrixPrompt,
          ...(request.oneHourCacheTtl ? { cache_control: { type: 'ephemeral', ttl: '1h' } } : {}),
        },
      ];
      // Messages requires max_tokens: without one asked for, the matrix's allowance.
      const body = { model, max_tokens: maxTokens ?? matrixMaxTokens, messages: [{ role: 'user' as const, content }] };
      if (!request.streamed) {
        const message = await claude.messages.create(body);
        for (const block of message.content) if (block.type === 'text') receive(block.text);
        return;
      }
      const stream = await claude.messages.create({ ...body, stream: true }, { signal });
      for await (const event of stream)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && receive(event.delta.text))
          return;
      return;
    }
    default: {
      const unreachable: never = request.endpoint;
      throw new Error(`unknown endpoint ${String(unreachable)}`);
    }
  }
}
