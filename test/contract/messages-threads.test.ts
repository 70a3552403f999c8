// Anthropic message threads through the gateway with the real @anthropic-ai/sdk 1.15 `beta.messages.toolRunner`
// (threaded by default: `thread: {type: "create"}` on its first turn, then `continue` with only the new tool results),
// against every vendor simulator: the gateway holds the thread, so each turn reaches the vendor with the whole
// conversation, and the run ends with the tools' results. Also: what the SDK recovers from (an unknown thread,
// another key's thread, threads turned off).
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractModels } from './contract-context.js';
import { contractTargets, type ContractTarget, type ContractUpstream } from './contract-targets.js';
import { startContractGateway, type ContractGateway } from './start-contract-gateway.js';

const prompt = 'weather and time in Paris';

/** What the client sent the gateway: each request's JSON body. */
interface SentRequest {
  body: Record<string, unknown>;
}

interface ThreadContext {
  gateway: ContractGateway;
  upstream: ContractUpstream;
  apiKey: string;
  sent: SentRequest[];
  anthropic: Anthropic;
  /** when set, the next `continue` names this id instead (a thread the gateway no longer holds) */
  loseNextThreadAs?: string;
}

async function startThreadContext(
  target: ContractTarget,
  configOverrides: Parameters<typeof startContractGateway>[0] = {},
): Promise<ThreadContext> {
  const upstream = await target.start();
  const gateway = await startContractGateway(configOverrides);
  await gateway.createChannel({
    protocol: target.protocol,
    baseUrl: upstream.url,
    secret: upstream.secret,
    settings: target.settings,
    models: { [contractModels.chat]: target.normalModel },
  });
  const apiKey = await gateway.createKey();
  const sent: SentRequest[] = [];
  const context: Omit<ThreadContext, 'anthropic'> = { gateway, upstream, apiKey, sent };
  const recordingFetch: typeof fetch = async (input, init) => {
    if (typeof init?.body !== 'string') return fetch(input, init);
    const body = JSON.parse(init.body) as Record<string, unknown>;
    const thread = body.thread as { type?: string } | undefined;
    if (thread?.type === 'continue' && context.loseNextThreadAs !== undefined) {
      body.thread = { type: 'continue', previous_message_id: context.loseNextThreadAs };
      context.loseNextThreadAs = undefined;
    }
    sent.push({ body });
    return fetch(input, { ...init, body: JSON.stringify(body) });
  };
  const anthropic = new Anthropic({
    apiKey,
    baseURL: gateway.url,
    maxRetries: 0,
    timeout: 20_000,
    fetch: recordingFetch,
  });
  return Object.assign(context, { anthropic });
}

function weatherAndTimeTools() {
  return [
    betaTool({
      name: 'get_weather',
      description: 'Weather for a city',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      run: () => 'sunny',
    }),
    betaTool({
      name: 'get_time',
      description: 'Local time in a city',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      run: () => '12:00',
    }),
  ];
}

function textOf(message: Anthropic.Beta.BetaMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Runs the tool runner to its end and checks the run and what the vendor saw on each turn. */
async function runToolRunner(context: ThreadContext, stream: boolean): Promise<void> {
  const sentBefore = context.sent.length;
  const upstreamBefore = context.upstream.requests.length;
  const runner = context.anthropic.beta.messages.toolRunner({
    model: contractModels.chat,
    max_tokens: 1_024,
    system: 'You answer with tools.',
    messages: [{ role: 'user', content: prompt }],
    tools: weatherAndTimeTools(),
    ...(stream ? { stream: true as const } : {}),
  });
  const final = await runner.runUntilDone();
  expect(final.stop_reason).toBe('end_turn');
  expect(textOf(final)).toContain('sunny');
  expect(textOf(final)).toContain('12:00');

  // The SDK used the thread: the second turn continued the first answer with only its tool results.
  const sent = context.sent.slice(sentBefore);
  expect(sent).toHaveLength(2);
  expect(sent[0]?.body.thread).toEqual({ type: 'create' });
  expect(sent[1]?.body.thread).toMatchObject({ type: 'continue', previous_message_id: expect.stringMatching(/^msg_/) });
  expect(sent[1]?.body.messages).toHaveLength(1);
  expect(sent[1]?.body).not.toHaveProperty('tools');

  // The vendor saw the whole conversation on each turn, with the thread's system and tools, and never `thread`.
  const upstreamTurns = context.upstream.requests.slice(upstreamBefore);
  expect(upstreamTurns).toHaveLength(2);
  const secondTurn = JSON.stringify(upstreamTurns[1]?.body);
  for (const expected of [prompt, 'You answer with tools.', 'get_weather', 'get_time', 'sunny', '12:00'])
    expect(secondTurn).toContain(expected);
  for (const turn of upstreamTurns) {
    expect(JSON.stringify(turn.body)).not.toContain('"thread"');
    expect(String(turn.headers['anthropic-beta'] ?? '')).not.toContain('message-threads');
  }
}

for (const target of contractTargets) {
  describe(`message threads: ${target.name}`, () => {
    let context: ThreadContext | undefined;

    beforeAll(async () => {
      context = await startThreadContext(target);
    });

    afterAll(async () => {
      await context?.gateway.close();
      await context?.upstream.close();
    });

    it('runs the threaded tool runner to its end, the vendor seeing the whole history each turn', async () => {
      await runToolRunner(context as ThreadContext, false);
    });

    it('runs the threaded tool runner streamed, the vendor seeing the whole history each turn', async () => {
      await runToolRunner(context as ThreadContext, true);
    });
  });
}

describe('message threads: what the SDK recovers from', () => {
  const target = contractTargets.find((candidate) => candidate.protocol === 'anthropic') as ContractTarget;
  let context: ThreadContext | undefined;

  beforeAll(async () => {
    context = await startThreadContext(target);
  });

  afterAll(async () => {
    await context?.gateway.close();
    await context?.upstream.close();
  });

  async function post(apiKey: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${(context as ThreadContext).gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  const turn = { model: contractModels.chat, max_tokens: 64 };

  it('answers an unknown thread 404 thread_not_found, as Anthropic does', async () => {
    const answer = await post((context as ThreadContext).apiKey, {
      ...turn,
      thread: { type: 'continue', previous_message_id: 'msg_never_held' },
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', details: { error_code: 'thread_not_found' } },
    });
  });

  it("continues a thread for its own key only: another key's continue is thread_not_found", async () => {
    const { apiKey, gateway } = context as ThreadContext;
    const created = await post(apiKey, {
      ...turn,
      thread: { type: 'create' },
      messages: [{ role: 'user', content: 'one' }],
    });
    expect(created.status).toBe(200);
    const continued = await post(apiKey, {
      ...turn,
      thread: { type: 'continue', previous_message_id: created.json.id },
      messages: [{ role: 'user', content: 'two' }],
    });
    expect(continued.status).toBe(200);
    const upstreamTurn = JSON.stringify((context as ThreadContext).upstream.requests.at(-1)?.body);
    expect(upstreamTurn).toContain('"one"');
    expect(upstreamTurn).toContain('Echo: one');
    expect(upstreamTurn).toContain('"two"');

    const otherKey = await gateway.createKey();
    const refused = await post(otherKey, {
      ...turn,
      thread: { type: 'continue', previous_message_id: continued.json.id },
      messages: [{ role: 'user', content: 'three' }],
    });
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ error: { details: { error_code: 'thread_not_found' } } });
  });

  it('refuses a continue that repeats the tools the thread keeps, naming them', async () => {
    const { apiKey } = context as ThreadContext;
    const created = await post(apiKey, {
      ...turn,
      thread: { type: 'create' },
      messages: [{ role: 'user', content: 'one' }],
    });
    const repeated = await post(apiKey, {
      ...turn,
      thread: { type: 'continue', previous_message_id: created.json.id },
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'two' }],
    });
    expect(repeated.status).toBe(400);
    expect(repeated.json).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(JSON.stringify(repeated.json)).toContain("'tools'");
  });

  it('replays the whole conversation in a new thread when the thread is gone (the SDK reads thread_not_found)', async () => {
    const threadContext = context as ThreadContext;
    const thread = threadContext.anthropic.beta.messages.thread({ model: contractModels.chat, max_tokens: 64 });
    const first = await thread.send({ role: 'user', content: 'first question' });
    expect(textOf(first)).toBe('Echo: first question');
    const sentBefore = threadContext.sent.length;
    threadContext.loseNextThreadAs = 'msg_lost_by_the_gateway';
    const second = await thread.send({ role: 'user', content: 'second question' });
    expect(textOf(second)).toBe('Echo: second question');
    const sent = threadContext.sent.slice(sentBefore).map((request) => request.body);
    expect(sent.map((body) => body.thread)).toEqual([
      { type: 'continue', previous_message_id: 'msg_lost_by_the_gateway' },
      { type: 'create' },
    ]);
    expect(sent[1]?.messages).toHaveLength(3);
    // The new thread holds it all: its next turn continues with only the new message.
    const third = await thread.send({ role: 'user', content: 'third question' });
    expect(textOf(third)).toBe('Echo: third question');
    expect(threadContext.sent.at(-1)?.body).toMatchObject({
      thread: { type: 'continue', previous_message_id: second.id },
    });
    expect(JSON.stringify(threadContext.upstream.requests.at(-1)?.body)).toContain('first question');
  });
});

describe('message threads turned off (GATEWAY_MESSAGE_THREAD_RETENTION_HOURS=0)', () => {
  const target = contractTargets.find((candidate) => candidate.protocol === 'gemini') as ContractTarget;
  let context: ThreadContext | undefined;

  beforeAll(async () => {
    context = await startThreadContext(target, { messageThreadRetentionHours: 0 });
  });

  afterAll(async () => {
    await context?.gateway.close();
    await context?.upstream.close();
  });

  it('answers thread_unsupported_request, and the tool runner goes on unthreaded with the whole history', async () => {
    const { anthropic, sent } = context as ThreadContext;
    const runner = anthropic.beta.messages.toolRunner({
      model: contractModels.chat,
      max_tokens: 1_024,
      messages: [{ role: 'user', content: prompt }],
      tools: weatherAndTimeTools(),
    });
    const final = await runner.runUntilDone();
    expect(textOf(final)).toContain('sunny');
    // The threaded first turn was refused, then every turn went out whole and unthreaded.
    expect(sent.map((request) => request.body.thread ?? null)).toEqual([{ type: 'create' }, null, null]);
    expect(sent[2]?.body.messages).toHaveLength(3);
  });
});
