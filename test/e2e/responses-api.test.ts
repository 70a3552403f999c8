// The Responses API end to end through the official `openai` SDK: a gateway whose channels to the OpenAI simulator
// have the Responses API (`responsesApi: "true"`), so bodies pass through with ids mapped and responses stored.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import { createReasoningSealer } from '../../src/protocols/shared/reasoning-sealer.js';
import {
  createOpenAiClient,
  startTestGateway,
  testSecretKey,
  type TestGateway,
} from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-responses-secret';
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;
/** a key of another user */
let stranger: OpenAI;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey: channelSecret });
  gateway = await startTestGateway();
  const settings = { responsesApi: 'true' };
  await gateway.createChannel({
    baseUrl: simulator.url,
    secret: channelSecret,
    models: ['gpt-5', 'sim-error-400', 'sim-error-429', 'sim-error-500', 'sim-stream-error-event', 'sim-cached-prompt'],
    modelMapping: { 'gpt-5': 'gpt-5-upstream' },
    settings,
  });
  // A second channel for another model: a chain that moves to it must be replayed in full.
  await gateway.createChannel({ baseUrl: simulator.url, secret: channelSecret, models: ['gpt-5-mini'], settings });
  clientKey = (await gateway.createKey()).secret;
  client = createOpenAiClient(gateway, clientKey);
  // A stream that breaks before its first event fails over to the next channel.
  await gateway.createChannel({
    baseUrl: simulator.url,
    secret: channelSecret,
    models: ['failover-model'],
    modelMapping: { 'failover-model': 'sim-broken-before-first-event' },
    priority: 1,
    settings,
  });
  await gateway.createChannel({
    baseUrl: simulator.url,
    secret: channelSecret,
    models: ['failover-model'],
    modelMapping: { 'failover-model': 'gpt-5' },
    priority: 0,
    settings,
  });
  const otherUser = await gateway.createUser();
  stranger = createOpenAiClient(gateway, (await gateway.createKey({ user: otherUser })).secret);
});

afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
});

beforeEach(() => simulator.reset());

function responsesRequestsUpstream(): Array<Record<string, unknown>> {
  return simulator.requests
    .filter((recorded) => recorded.path === '/v1/responses')
    .map((recorded) => recorded.body as Record<string, unknown>);
}

async function rejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => expect.fail('expected the call to fail'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/** A streamed create read raw: the body text and the parsed `data:` payloads. */
async function rawStreamEvents(
  body: Record<string, unknown>,
): Promise<{ text: string; events: Array<Record<string, unknown>> }> {
  const response = await fetch(`${gateway.baseURL}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${clientKey}` },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const data = JSON.parse((lines.find((line) => line.startsWith('data: ')) ?? '').slice('data: '.length)) as Record<
        string,
        unknown
      >;
      expect(lines[0]).toBe(`event: ${String(data.type)}`);
      return data;
    });
  return { text, events };
}

describe('POST /v1/responses passed through to a Responses API channel', () => {
  it('answers a plain create with a gateway id, the vendor model rewritten upstream, and the vendor usage', async () => {
    const response = await client.responses.create({ model: 'gpt-5', input: 'hello there' });
    expect(response).toMatchObject({ object: 'response', status: 'completed', output_text: 'Echo: hello there' });
    expect(response.usage).toMatchObject({ input_tokens: 2, output_tokens: 3, total_tokens: 5 });
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(simulator.storedResponseIds()).not.toContain(response.id);
    expect(responsesRequestsUpstream()).toEqual([
      expect.objectContaining({ model: 'gpt-5-upstream', input: 'hello there' }),
    ]);
  });

  it('streams through responses.stream().finalResponse() with the gateway id in every event', async () => {
    const stream = client.responses.stream({ model: 'gpt-5', input: 'one two three' });
    const eventIds: string[] = [];
    stream.on('response.created', (event) => eventIds.push(event.response.id));
    stream.on('response.completed', (event) => eventIds.push(event.response.id));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Echo: one two three');
    expect(final.id).toMatch(/^resp_/);
    expect(eventIds).toEqual([final.id, final.id]);
    expect(simulator.storedResponseIds()).not.toContain(final.id);
    // Stored before its last event reached the client: retrievable at once.
    expect((await client.responses.retrieve(final.id)).output_text).toBe('Echo: one two three');
  });

  it('retrieves and deletes a stored response; afterwards it is gone', async () => {
    const created = await client.responses.create({ model: 'gpt-5', input: 'keep me' });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, status: 'completed', output_text: 'Echo: keep me' });
    await client.responses.delete(created.id);
    expect((await rejectionOf(client.responses.retrieve(created.id))).status).toBe(404);
    expect((await rejectionOf(client.responses.delete(created.id))).status).toBe(404);
  });

  it('pages input items newest first by default, with gateway item ids', async () => {
    const input = ['first', 'second', 'third'].map((text) => ({ role: 'user' as const, content: text }));
    const created = await client.responses.create({ model: 'gpt-5', input });
    const firstPage = await client.responses.inputItems.list(created.id, { limit: 2 });
    expect(firstPage.data.map((item) => (item as { content: Array<{ text: string }> }).content[0]?.text)).toEqual([
      'third',
      'second',
    ]);
    expect(firstPage.has_more).toBe(true);
    expect(firstPage.data.every((item) => /^msg_[0-9a-f]{48}$/.test(item.id ?? ''))).toBe(true);
    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { limit: 2, order: 'asc' }))
      all.push((item as { content: Array<{ text: string }> }).content[0]?.text ?? '');
    expect(all).toEqual(['first', 'second', 'third']);
  });

  it('continues a chain of three turns: the vendor id on the same channel, the whole conversation on another', async () => {
    const first = await client.responses.create({ model: 'gpt-5', input: 'alpha' });
    const second = await client.responses.create({ model: 'gpt-5', input: 'beta', previous_response_id: first.id });
    const third = await client.responses.create({
      model: 'gpt-5-mini',
      input: 'gamma',
      previous_response_id: second.id,
    });
    const [firstSent, secondSent, thirdSent] = responsesRequestsUpstream();
    expect(firstSent).not.toHaveProperty('previous_response_id');
    // Same channel: the vendor's own id of the first response, never the gateway's.
    expect(secondSent?.previous_response_id).toMatch(/^resp_/);
    expect(secondSent?.previous_response_id).not.toBe(first.id);
    expect(simulator.storedResponseIds()).toContain(secondSent?.previous_response_id);
    // Another channel: no previous id, the stored items and outputs of both earlier turns, then the new input.
    expect(thirdSent).not.toHaveProperty('previous_response_id');
    const replayedTexts = (thirdSent?.input as Array<{ role?: string; content: string | Array<{ text: string }> }>).map(
      (item) => (typeof item.content === 'string' ? item.content : item.content.map((part) => part.text).join('')),
    );
    expect(replayedTexts).toEqual(['alpha', 'Echo: alpha', 'beta', 'Echo: beta', 'gamma']);
    expect(second.previous_response_id).toBe(first.id);
    expect(third.previous_response_id).toBe(second.id);
    expect(third.output_text).toBe('Echo: gamma');
    for (const response of [first, second, third]) expect(simulator.storedResponseIds()).not.toContain(response.id);
  });

  it('keeps nothing with store: false (retrieve 404, and it cannot be continued)', async () => {
    const unstored = await client.responses.create({ model: 'gpt-5', input: 'forget me', store: false });
    expect(unstored.output_text).toBe('Echo: forget me');
    expect((await rejectionOf(client.responses.retrieve(unstored.id))).status).toBe(404);
    const continued = await rejectionOf(
      client.responses.create({ model: 'gpt-5', input: 'again', previous_response_id: unstored.id }),
    );
    expect(continued).toMatchObject({ status: 404, param: 'previous_response_id' });
  });

  it("answers 404 to another user's key for retrieve, delete, input items and previous_response_id", async () => {
    const mine = await client.responses.create({ model: 'gpt-5', input: 'private' });
    expect((await rejectionOf(stranger.responses.retrieve(mine.id))).status).toBe(404);
    expect((await rejectionOf(stranger.responses.delete(mine.id))).status).toBe(404);
    expect((await rejectionOf(stranger.responses.inputItems.list(mine.id))).status).toBe(404);
    expect(
      (await rejectionOf(stranger.responses.create({ model: 'gpt-5', input: 'x', previous_response_id: mine.id })))
        .status,
    ).toBe(404);
    expect((await client.responses.retrieve(mine.id)).id).toBe(mine.id);
  });

  it.each([
    ['sim-error-400', 400, OpenAI.BadRequestError],
    ['sim-error-429', 429, OpenAI.RateLimitError],
    ['sim-error-500', 500, OpenAI.InternalServerError],
  ])('maps a vendor %s to an OpenAI error', async (model, status, errorClass) => {
    const error = await rejectionOf(client.responses.create({ model, input: 'x' }));
    expect(error).toBeInstanceOf(errorClass);
    expect(error.status).toBe(status);
    expect(JSON.stringify(error.error)).not.toContain(channelSecret);
  });

  it('ends a stream the vendor failed mid-way with its error and response.failed, never showing the vendor id', async () => {
    const { events, text } = await rawStreamEvents({
      model: 'sim-stream-error-event',
      input: 'one two three four five',
    });
    const createdId = (events[0]?.response as { id: string }).id;
    expect(createdId).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(events.slice(-2)).toMatchObject([
      { type: 'error', code: 'server_error' },
      { type: 'response.failed', response: { id: createdId, status: 'failed' } },
    ]);
    const sequenceNumbers = events.map((event) => event.sequence_number as number);
    expect(sequenceNumbers).toEqual([...sequenceNumbers].sort((left, right) => left - right));
    for (const vendorId of simulator.storedResponseIds()) expect(text).not.toContain(vendorId);
    // The SDK helper surfaces the failure.
    const failure = await client.responses
      .stream({ model: 'sim-stream-error-event', input: 'one two three four five' })
      .finalResponse()
      .then(
        () => expect.fail('expected the stream to fail'),
        (caught: unknown) => caught,
      );
    expect(failure).toMatchObject({ code: 'server_error' });
  });

  it('never shows the vendor response id in a streamed answer', async () => {
    const { events, text } = await rawStreamEvents({ model: 'gpt-5', input: 'hidden ids' });
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
    expect(text).not.toContain('data: [DONE]');
    const vendorIds = simulator.storedResponseIds();
    expect(vendorIds.length).toBeGreaterThan(0);
    for (const vendorId of vendorIds) expect(text).not.toContain(vendorId);
  });

  it('fails a stream over to the next channel when the first breaks before its first event', async () => {
    const final = await client.responses.stream({ model: 'failover-model', input: 'still answered' }).finalResponse();
    expect(final.output_text).toBe('Echo: still answered');
    expect(responsesRequestsUpstream().map((body) => body.model)).toEqual(['sim-broken-before-first-event', 'gpt-5']);
  });

  it('forwards the fields that change neither price nor model, and drops the others (service_tier)', async () => {
    await client.responses.create({
      model: 'gpt-5',
      input: 'x',
      prompt_cache_key: 'cache-1',
      service_tier: 'priority',
      metadata: { ticket: '7' },
    });
    const [sent] = responsesRequestsUpstream();
    expect(sent).toMatchObject({ prompt_cache_key: 'cache-1', metadata: { ticket: '7' } });
    expect(sent).not.toHaveProperty('service_tier');
  });

  it('never sends an OpenAI channel reasoning the gateway sealed for another vendor; its own encrypted reasoning passes', async () => {
    const sealed = createReasoningSealer(createSecretBox(testSecretKey)).seal({
      artefact: { producer: 'anthropic', signature: 'sig-from-claude' },
    });
    const input = [
      { role: 'user' as const, content: 'think' },
      {
        type: 'reasoning' as const,
        id: 'rs_other',
        summary: [{ type: 'summary_text' as const, text: 'thought elsewhere' }],
        encrypted_content: sealed,
      },
      { type: 'reasoning' as const, id: 'rs_openai', summary: [], encrypted_content: 'gAAAAsim-openai-own-blob' },
      { role: 'user' as const, content: 'again' },
    ];
    await client.responses.create({ model: 'gpt-5', input });
    const [sent] = responsesRequestsUpstream();
    expect(
      (sent?.input as Array<{ type?: string; id?: string }>).map((item) => item.id ?? item.type ?? 'message'),
    ).toEqual(['message', 'rs_openai', 'message']);
  });

  it('refuses background and conversation with a 400 naming the parameter', async () => {
    expect(await rejectionOf(client.responses.create({ model: 'gpt-5', input: 'x', background: true }))).toMatchObject({
      status: 400,
      param: 'background',
    });
    expect(
      await rejectionOf(client.responses.create({ model: 'gpt-5', input: 'x', conversation: 'conv_1' })),
    ).toMatchObject({ status: 400, param: 'conversation' });
  });
});
