// The gateway's OpenTelemetry output by the GenAI conventions, as a collector receives it: an in-process OTLP/HTTP
// receiver decodes the protobuf the exporters send (spans and metrics) while real SDK clients call the gateway, whose
// channels are the loopback vendor simulators (one channel answers 500, to see a failover).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TelemetrySettings } from '../../src/config/telemetry-settings.js';
import { genAiBucketBoundaries } from '../../src/observability/telemetry/gen-ai-bucket-boundaries.js';
import { otlpSpanKind, otlpStatusCode } from '../doubles/otlp/otlp-proto-schema.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../doubles/otlp/start-otlp-receiver.js';
import { createOpenAiClient, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const openAiSecret = 'sk-upstream-telemetry-openai';
const anthropicSecret = 'sk-ant-upstream-telemetry';
const geminiSecret = 'gemini-upstream-telemetry';
const collectorToken = 'collector-token-for-tests';

let receiver: OtlpReceiver;
let openAi: OpenAiSimulator;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let brokenVendor: Server;
let gateway: TestGateway;
let key: string;
let client: OpenAI;

/** Telemetry settings pointing at the receiver, every span kept. */
function telemetryTo(url: string, overrides: Partial<TelemetrySettings> = {}): TelemetrySettings {
  return {
    tracesEndpoint: `${url}/v1/traces`,
    metricsEndpoint: `${url}/v1/metrics`,
    tracesHeaders: { authorization: `Bearer ${collectorToken}` },
    metricsHeaders: { authorization: `Bearer ${collectorToken}` },
    sampler: { ratio: 1, parentBased: true },
    serviceName: 'gateway-under-test',
    // Exports are forced by the tests; the periodic one must not interleave.
    metricExportIntervalMs: 600_000,
    propagateToVendors: false,
    ...overrides,
  };
}

/** A vendor that answers every request with a JSON 500, as an overloaded one does. */
async function startBrokenVendor(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: null } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** Exports what the gateway buffered and returns the spans of one trace (by its SERVER span's request id). */
async function flushedSpans(): Promise<ReceivedSpan[]> {
  await gateway.running.telemetry.forceFlush();
  return receiver.spans;
}

/** The SERVER span of the request that answered with `requestId`, and its CLIENT children in start order. */
function requestTree(spans: ReceivedSpan[], requestId: string): { server: ReceivedSpan; clients: ReceivedSpan[] } {
  const server = spans.find(
    (span) => span.kind === otlpSpanKind.server && span.attributes['gateway.request.id'] === requestId,
  );
  if (!server) throw new Error(`no SERVER span for request ${requestId}`);
  const clients = spans
    .filter((span) => span.parentSpanId === server.spanId && span.kind === otlpSpanKind.client)
    .sort((first, second) => first.startTimeUnixNano - second.startTimeUnixNano);
  return { server, clients };
}

/** Names of attributes that would carry message content (opt-in only by the conventions; never recorded here). */
const contentAttributeNames = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.definitions',
  'gen_ai.prompt',
  'gen_ai.completion',
];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  openAi = await startOpenAiSimulator({ apiKey: openAiSecret });
  anthropic = await startAnthropicSimulator({ apiKey: anthropicSecret });
  gemini = await startGeminiSimulator({ apiKey: geminiSecret });
  const broken = await startBrokenVendor();
  brokenVendor = broken.server;
  gateway = await startTestGateway({ config: { telemetry: telemetryTo(receiver.url) } });
  await gateway.createChannel({
    name: 'openai-main',
    baseUrl: openAi.url,
    secret: openAiSecret,
    models: ['gpt-4o', 'text-embedding-3-small'],
    refreshRouting: false,
  });
  await gateway.createChannel({
    name: 'anthropic-main',
    protocol: 'anthropic',
    baseUrl: anthropic.url,
    secret: anthropicSecret,
    settings: { apiVersion: '2023-06-01' },
    models: ['claude-sonnet-4-5'],
    modelMapping: { 'claude-sonnet-4-5': 'claude-sonnet-4-5-20250929' },
    refreshRouting: false,
  });
  await gateway.createChannel({
    name: 'gemini-main',
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: ['gemini-2.5-flash'],
    refreshRouting: false,
  });
  await gateway.createChannel({
    name: 'responses-broken',
    baseUrl: broken.url,
    secret: openAiSecret,
    models: ['gpt-5-mini'],
    settings: { responsesApi: 'true' },
    priority: 100,
    refreshRouting: false,
  });
  await gateway.createChannel({
    name: 'responses-healthy',
    baseUrl: openAi.url,
    secret: openAiSecret,
    models: ['gpt-5-mini'],
    settings: { responsesApi: 'true' },
    priority: 50,
    refreshRouting: false,
  });
  key = (await gateway.createKey()).secret;
  client = createOpenAiClient(gateway, key);
});

afterAll(async () => {
  await gateway?.close();
  await openAi?.close();
  await anthropic?.close();
  await gemini?.close();
  await new Promise<void>((resolve) => brokenVendor?.close(() => resolve()));
  await receiver?.close();
});

beforeEach(() => {
  openAi.requests.length = 0;
});

describe('traces by the GenAI conventions', () => {
  it('a chat completion is a SERVER span with one CLIENT span under it, named and attributed by the conventions', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'say hello' }], max_tokens: 50, temperature: 0.2 })
      .withResponse();
    const requestId = response.headers.get('x-request-id') ?? '';
    const { server, clients } = requestTree(await flushedSpans(), requestId);

    expect(server.name).toBe('chat gpt-4o');
    expect(server.resource['service.name']).toBe('gateway-under-test');
    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.request.max_tokens': 50,
      'gen_ai.request.temperature': 0.2,
      'gen_ai.usage.input_tokens': data.usage?.prompt_tokens,
      'gen_ai.usage.output_tokens': data.usage?.completion_tokens,
      'gateway.request.id': requestId,
      'http.response.status_code': 200,
    });
    expect(typeof server.attributes['gateway.api_key.id']).toBe('string');
    expect(typeof server.attributes['gateway.user.id']).toBe('string');
    expect(server.attributes['error.type']).toBeUndefined();
    expect(server.parentSpanId).toBe('');

    expect(clients).toHaveLength(1);
    const [attempt] = clients;
    expect(attempt?.name).toBe('chat gpt-4o');
    expect(attempt?.traceId).toBe(server.traceId);
    expect(attempt?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': data.usage?.prompt_tokens,
      'gen_ai.usage.output_tokens': data.usage?.completion_tokens,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(openAi.url).port),
      'gateway.attempt': 1,
      'gen_ai.response.id': data.id,
      'gen_ai.response.model': data.model,
      'gen_ai.response.finish_reasons': data.choices.map((choice) => choice.finish_reason),
    });
    expect(server.attributes).toMatchObject({
      'gen_ai.response.model': data.model,
      'gen_ai.response.finish_reasons': data.choices.map((choice) => choice.finish_reason),
    });
    // The deprecated names are not used.
    expect(attempt?.attributes['gen_ai.system']).toBeUndefined();
    expect(attempt?.attributes['gen_ai.usage.prompt_tokens']).toBeUndefined();
    // The exporter sends the operator's headers to the collector.
    expect(receiver.requestHeaders.some((headers) => headers.authorization === `Bearer ${collectorToken}`)).toBe(true);
  });

  it('a streamed Messages request to an Anthropic channel names the vendor model on its attempt', async () => {
    const anthropicClient = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    const stream = anthropicClient.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'stream a short answer' }],
    });
    const final = await stream.finalMessage();
    const requestId = (await stream.withResponse()).response.headers.get('x-request-id') ?? '';
    const { server, clients } = requestTree(await flushedSpans(), requestId);

    expect(server.name).toBe('chat claude-sonnet-4-5');
    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.request.stream': true,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.usage.output_tokens': final.usage.output_tokens,
    });
    expect(clients).toHaveLength(1);
    expect(clients[0]?.name).toBe('chat claude-sonnet-4-5-20250929');
    expect(clients[0]?.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5-20250929',
      'gen_ai.usage.output_tokens': final.usage.output_tokens,
      'gen_ai.response.finish_reasons': [final.stop_reason],
    });
    expect(clients[0]?.attributes['gen_ai.response.id']).toMatch(/^msg_/);
    expect(typeof clients[0]?.attributes['gen_ai.response.model']).toBe('string');
    expect(server.attributes['gen_ai.response.finish_reasons']).toEqual([final.stop_reason]);
  });

  it('a streamed chat completion names the response id, model and finish reason read from its chunks', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'stream a few words' }], stream: true })
      .withResponse();
    let responseId = '';
    let responseModel = '';
    const finishReasons: string[] = [];
    for await (const chunk of stream) {
      responseId ||= chunk.id;
      responseModel ||= chunk.model;
      for (const choice of chunk.choices) if (choice.finish_reason) finishReasons.push(choice.finish_reason);
    }
    const { server, clients } = requestTree(await flushedSpans(), response.headers.get('x-request-id') ?? '');

    expect(finishReasons).toEqual(['stop']);
    expect(clients[0]?.attributes).toMatchObject({
      'gen_ai.response.id': responseId,
      'gen_ai.response.model': responseModel,
      'gen_ai.response.finish_reasons': finishReasons,
    });
    expect(server.attributes['gen_ai.response.finish_reasons']).toEqual(finishReasons);
  });

  it("a chat answered by a Gemini channel names Gemini's response id, model version and finish reason", async () => {
    const { response } = await client.chat.completions
      .create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hello gemini' }] })
      .withResponse();
    const { server, clients } = requestTree(await flushedSpans(), response.headers.get('x-request-id') ?? '');

    expect(clients).toHaveLength(1);
    expect(clients[0]?.attributes).toMatchObject({
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.response.model': 'gemini-2.5-flash',
      'gen_ai.response.finish_reasons': ['STOP'],
    });
    expect(clients[0]?.attributes['gen_ai.response.id']).toMatch(/^sim/);
    expect(server.attributes).toMatchObject({
      'gen_ai.response.model': 'gemini-2.5-flash',
      'gen_ai.response.finish_reasons': ['STOP'],
    });
  });

  it('a Responses request that fails over has two CLIENT spans, the first with error.type', async () => {
    const { response } = await client.responses
      .create({ model: 'gpt-5-mini', input: 'fail over please' })
      .withResponse();
    const requestId = response.headers.get('x-request-id') ?? '';
    const { server, clients } = requestTree(await flushedSpans(), requestId);

    expect(server.name).toBe('chat gpt-5-mini');
    expect(server.statusCode).not.toBe(otlpStatusCode.error);
    expect(server.attributes['error.type']).toBeUndefined();
    expect(clients).toHaveLength(2);
    const [failed, answered] = clients;
    expect(failed?.attributes).toMatchObject({ 'gateway.attempt': 1, 'http.response.status_code': 500 });
    expect(typeof failed?.attributes['error.type']).toBe('string');
    expect(failed?.statusCode).toBe(otlpStatusCode.error);
    expect(answered?.attributes).toMatchObject({
      'gateway.attempt': 2,
      'http.response.status_code': 200,
      'gen_ai.response.finish_reasons': ['completed'],
    });
    expect(answered?.attributes['gen_ai.response.id']).toMatch(/^resp_/);
    expect(failed?.attributes['gen_ai.response.id']).toBeUndefined();
    expect(answered?.attributes['error.type']).toBeUndefined();
    expect(failed?.attributes['gateway.channel.id']).not.toBe(answered?.attributes['gateway.channel.id']);
    expect(server.attributes['gateway.channel.id']).toBe(answered?.attributes['gateway.channel.id']);
  });

  it('a channel whose breaker opened is an event on the request span, with no CLIENT span of its own', async () => {
    // Five consecutive failures open a breaker (the default); the failover test above was the first.
    for (let request = 0; request < 5; request += 1)
      await client.responses.create({ model: 'gpt-5-mini', input: `fail over ${request}` });
    const { response } = await client.responses.create({ model: 'gpt-5-mini', input: 'skip it' }).withResponse();
    const { server, clients } = requestTree(await flushedSpans(), response.headers.get('x-request-id') ?? '');

    expect(clients).toHaveLength(1);
    expect(clients[0]?.attributes['gateway.channel.name']).toBe('responses-healthy');
    const skipped = server.events.filter((event) => event.name === 'gateway.channel.skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.attributes).toMatchObject({
      'gateway.channel.name': 'responses-broken',
      'error.type': 'circuit_open',
    });
  });

  it('a Messages count_tokens is a count_tokens SERVER span with the vendor count as its CLIENT span', async () => {
    const response = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'count these' }] }),
    });
    expect(response.status).toBe(200);
    const { server, clients } = requestTree(await flushedSpans(), response.headers.get('x-request-id') ?? '');

    expect(server.name).toBe('count_tokens claude-sonnet-4-5');
    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'count_tokens',
      'http.response.status_code': 200,
    });
    expect(clients).toHaveLength(1);
    expect(clients[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'count_tokens',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5-20250929',
    });
  });

  it('an embedding is an embeddings operation', async () => {
    const { response } = await client.embeddings
      .create({ model: 'text-embedding-3-small', input: 'embed me' })
      .withResponse();
    const requestId = response.headers.get('x-request-id') ?? '';
    const { server, clients } = requestTree(await flushedSpans(), requestId);

    expect(server.name).toBe('embeddings text-embedding-3-small');
    expect(server.attributes['gen_ai.operation.name']).toBe('embeddings');
    expect(clients).toHaveLength(1);
    expect(clients[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.request.model': 'text-embedding-3-small',
    });
    expect(typeof clients[0]?.attributes['gen_ai.usage.input_tokens']).toBe('number');
  });

  it("a client's traceparent becomes the parent, and vendors never see it by default", async () => {
    const clientTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpanId = '00f067aa0ba902b7';
    const traced = new OpenAI({
      apiKey: key,
      baseURL: gateway.baseURL,
      maxRetries: 0,
      defaultHeaders: { traceparent: `00-${clientTraceId}-${clientSpanId}-01` },
    });
    const { response } = await traced.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'traced call' }] })
      .withResponse();
    const { server, clients } = requestTree(await flushedSpans(), response.headers.get('x-request-id') ?? '');

    expect(server.traceId).toBe(clientTraceId);
    expect(server.parentSpanId).toBe(clientSpanId);
    expect(clients[0]?.traceId).toBe(clientTraceId);
    const vendorRequest = openAi.requests.find((request) => request.path === '/v1/chat/completions');
    expect(vendorRequest?.headers.traceparent).toBeUndefined();
  });

  it('records no message content by default', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'secret system prompt' },
        { role: 'user', content: 'secret user text' },
      ],
    });
    const spans = await flushedSpans();
    for (const span of spans) {
      for (const name of contentAttributeNames) expect(span.attributes[name]).toBeUndefined();
      for (const value of Object.values(span.attributes)) expect(String(value)).not.toContain('secret');
    }
  });
});

describe('GenAI metrics', () => {
  it('exports the five histograms over OTLP with the conventions bucket boundaries and no key or user ids', async () => {
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'count me' }] });
    const streamed = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'stream me a few words please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of streamed) void chunk;
    await gateway.running.telemetry.forceFlush();
    const latest = new Map(receiver.metrics.map((metric) => [metric.name, metric]));

    const expectations: Array<[string, string, readonly number[]]> = [
      ['gen_ai.client.token.usage', '{token}', genAiBucketBoundaries.tokenUsage],
      ['gen_ai.client.operation.duration', 's', genAiBucketBoundaries.duration],
      ['gen_ai.server.request.duration', 's', genAiBucketBoundaries.duration],
      ['gen_ai.server.time_to_first_token', 's', genAiBucketBoundaries.timeToFirstToken],
      ['gen_ai.server.time_per_output_token', 's', genAiBucketBoundaries.timePerOutputToken],
    ];
    for (const [name, unit, boundaries] of expectations) {
      const metric = latest.get(name);
      expect(metric, name).toBeDefined();
      expect(metric?.unit).toBe(unit);
      expect(metric?.histogramPoints.length, name).toBeGreaterThan(0);
      for (const point of metric?.histogramPoints ?? []) {
        expect(point.explicitBounds).toEqual([...boundaries]);
        expect(Object.keys(point.attributes).some((attribute) => /key|user|request\.id/.test(attribute))).toBe(false);
      }
    }
    const tokenPoints = latest.get('gen_ai.client.token.usage')?.histogramPoints ?? [];
    expect(tokenPoints.map((point) => point.attributes['gen_ai.token.type'])).toEqual(
      expect.arrayContaining(['input', 'output']),
    );
    expect(
      tokenPoints.find((point) => point.attributes['gen_ai.request.model'] === 'gpt-4o')?.attributes,
    ).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai' });
    const failedAttempts = latest
      .get('gen_ai.client.operation.duration')
      ?.histogramPoints.filter((point) => point.attributes['error.type'] !== undefined);
    expect(failedAttempts?.length).toBeGreaterThan(0);
  });

  it('renders them on /metrics in the Prometheus text format after the gateway metrics', async () => {
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'scrape me' }] });
    const text = await (await fetch(`${gateway.url}/metrics`)).text();

    expect(text).toContain('# TYPE gen_ai_client_token_usage histogram');
    expect(text).toMatch(/^gen_ai_client_token_usage_bucket\{.*gen_ai_token_type="input".*le="1"\} \d+$/m);
    expect(text).toMatch(/^gen_ai_client_operation_duration_bucket\{.*le="81.92"\} \d+$/m);
    expect(text).toMatch(/^gen_ai_server_request_duration_count\{.*gen_ai_request_model="gpt-4o".*\} \d+$/m);
    expect(text).not.toMatch(/api_key|user_id/);
    // The gateway's own prom-client metrics come first, unchanged.
    expect(text.indexOf('gen_ai_client_token_usage')).toBeGreaterThan(0);
  });
});

describe('propagation to vendors', () => {
  it('sends traceparent upstream only when GATEWAY_OTEL_PROPAGATE_TO_VENDORS is on', async () => {
    const propagating = await startTestGateway({
      config: { telemetry: telemetryTo(receiver.url, { propagateToVendors: true }) },
    });
    try {
      await propagating.createChannel({ baseUrl: openAi.url, secret: openAiSecret, models: ['gpt-4o'] });
      const propagatingClient = createOpenAiClient(propagating, (await propagating.createKey()).secret);
      await propagatingClient.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'follow me upstream' }],
      });
      await propagating.running.telemetry.forceFlush();
      const header = openAi.requests.find((request) => request.path === '/v1/chat/completions')?.headers.traceparent;
      expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const [, traceId, spanId] = String(header).split('-');
      const attempt = receiver.spans.find((span) => span.spanId === spanId);
      expect(attempt?.kind).toBe(otlpSpanKind.client);
      expect(attempt?.traceId).toBe(traceId);
    } finally {
      await propagating.close();
    }
  });
});
