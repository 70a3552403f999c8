// Vertex AI channels end to end with the official SDK: service-account tokens from the (simulated) token endpoint,
// cached across requests and replaced before they expire, express mode's API key, embeddings through `:predict`
// billed by Vertex's token counts, and a failing token endpoint answered as an outage, not a crash.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractGateway, type ContractGateway } from '../contract/start-contract-gateway.js';
import { startVertexSimulator, type VertexSimulator } from '../simulators/vertex-simulator.js';

describe('Vertex AI channels', () => {
  let gateway: ContractGateway;
  let vertex: VertexSimulator;
  let shortLived: VertexSimulator;
  let client: OpenAI;

  beforeAll(async () => {
    gateway = await startContractGateway();
    vertex = await startVertexSimulator();
    // One second past the five minutes before expiry at which a token is replaced.
    shortLived = await startVertexSimulator({ tokenLifetimeSeconds: 301 });
    const settings = { project: vertex.project, location: vertex.location };
    await gateway.createChannel({
      protocol: 'vertex',
      baseUrl: vertex.url,
      secret: vertex.serviceAccountKey,
      settings,
      models: {
        'vertex-gemini': 'gemini-sim',
        'vertex-claude': 'claude-sim',
        'vertex-embedding': 'text-embedding-005',
      },
    });
    await gateway.createChannel({
      protocol: 'vertex',
      baseUrl: shortLived.url,
      secret: shortLived.serviceAccountKey,
      settings,
      models: { 'short-lived-gemini': 'gemini-sim' },
    });
    await gateway.createChannel({
      protocol: 'vertex',
      baseUrl: vertex.url,
      secret: vertex.apiKey,
      settings: {},
      models: { 'express-gemini': 'gemini-sim' },
    });
    client = new OpenAI({ baseURL: gateway.baseURL, apiKey: await gateway.createKey(), maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway.close();
    await vertex.close();
    await shortLived.close();
  });

  it('exchanges the service-account key once for parallel and later requests, Gemini and Claude alike', async () => {
    const before = vertex.tokens.exchangeCount;
    const answers = await Promise.all(
      ['vertex-gemini', 'vertex-claude', 'vertex-gemini', 'vertex-claude'].map((model) =>
        client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }] }),
      ),
    );
    for (const answer of answers) expect(answer.choices[0]?.message.content).toBeTruthy();
    const later = await client.chat.completions.create({
      model: 'vertex-claude',
      stream: true,
      messages: [{ role: 'user', content: 'Say hello again' }],
    });
    let text = '';
    for await (const chunk of later) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).not.toBe('');
    expect(vertex.tokens.exchangeCount - before).toBe(1);
    const claudeCall = vertex.requests.find((request) => request.path.includes('/publishers/anthropic/'));
    expect(claudeCall?.path).toBe(
      `/v1/projects/${vertex.project}/locations/${vertex.location}/publishers/anthropic/models/claude-sim:rawPredict`,
    );
    expect(claudeCall?.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
    expect(claudeCall?.headers.authorization).toMatch(/^Bearer ya29\.sim-/);
  });

  it('replaces a token before it expires, so no request carries an expired one', async () => {
    const ask = () =>
      client.chat.completions.create({ model: 'short-lived-gemini', messages: [{ role: 'user', content: 'Hi' }] });
    await ask();
    expect(shortLived.tokens.exchangeCount).toBe(1);
    // Past the refresh point (lifetime minus five minutes) but long before the token itself expires.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await ask();
    expect(shortLived.tokens.exchangeCount).toBe(2);
  });

  it('sends an API key in express mode, with no project in the address', async () => {
    const answer = await client.chat.completions.create({
      model: 'express-gemini',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]?.message.content).toBeTruthy();
    const call = vertex.requests.at(-1);
    expect(call?.path).toBe('/v1/publishers/google/models/gemini-sim:generateContent');
    expect(call?.headers['x-goog-api-key']).toBe(vertex.apiKey);
    expect(call?.headers.authorization).toBeUndefined();
  });

  it("embeds through :predict with Vertex's token counts as the usage, and refuses silent truncation", async () => {
    const answer = await client.embeddings.create({
      model: 'vertex-embedding',
      input: ['one two three', 'four five'],
      dimensions: 8,
    });
    expect(answer.data.map((item) => (item.embedding as number[]).length)).toEqual([8, 8]);
    expect(answer.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    expect(vertex.requests.at(-1)?.body).toEqual({
      instances: [{ content: 'one two three' }, { content: 'four five' }],
      parameters: { autoTruncate: false, outputDimensionality: 8 },
    });
    const tooLong = await client.embeddings
      .create({ model: 'vertex-embedding', input: 'word '.repeat(3000) })
      .catch((error: unknown) => error);
    expect(tooLong).toBeInstanceOf(OpenAI.APIError);
    expect((tooLong as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
  });

  it('answers a failing token endpoint as an outage (503), and serves again once it recovers', async () => {
    shortLived.tokens.failWithStatus = 500;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const failed = await client.chat.completions
      .create({ model: 'short-lived-gemini', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    shortLived.tokens.failWithStatus = undefined;
    const answer = await client.chat.completions.create({
      model: 'short-lived-gemini',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]?.message.content).toBeTruthy();
  });
});
