// Thousands of mixed requests (chat, completions, embeddings, images, Responses, Messages; streamed and not) to a
// billed gateway whose channels of every upstream protocol (OpenAI wire incl. Responses, Anthropic, Gemini, Bedrock)
// point at the chaos vendor, each channel pinned to one misbehaviour. The gateway must stay up; every answer is the
// vendor's success, well-formed, or an error in the client protocol's shape with a status that fits the fault (never a
// 3xx, never a malformed 200, never a stream completed after an error), carries no channel secret, comes within the
// configured timeouts, and the ledger reconciles afterwards (what `gateway billing verify` checks).
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { maximumStreamEventCharacters } from '../../src/dispatch/relay-stream-errors.js';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { chaosScenarios, failsOverFrom, type ChaosScenario } from '../simulators/chaos-vendor-scenarios.js';
import { startChaosVendor, type ChaosVendor } from '../simulators/chaos-vendor.js';
import {
  findChaosAnswerProblems,
  type ChaosAnswer,
  type ChaosEndpoint,
  type ChaosInvariant,
} from './chaos-answer-problems.js';

const upstreamHeadersTimeoutMs = 1_500;
const upstreamBodyTimeoutMs = 1_500;
const upstreamMaxBodyBytes = 256 * 1024;
/** The longest any answer may take: a vendor trickling three bytes a second and then stalling, plus room for a busy machine. */
const maximumElapsedMs = 15_000;
const requestCount = Number(process.env.CHAOS_REQUESTS ?? 2_400);
const concurrency = 24;

type ChaosProtocol = 'openai' | 'anthropic' | 'gemini' | 'bedrock';

/** The channel secret of each protocol: a test fails if any of them reaches a client. */
const secrets: Record<ChaosProtocol, string> = {
  openai: 'sk-chaos-openai-RECOGNISABLE-0001',
  anthropic: 'sk-ant-chaos-RECOGNISABLE-0002',
  gemini: 'AIzaSyChaosGeminiRECOGNISABLE000003',
  bedrock: 'AKIACHAOSRECOGNISE04:chaos/secret+access/RECOGNISABLE0000000004',
};
const bedrockSecretParts = secrets.bedrock.split(':');

/** The version path each protocol's base URL ends with. */
const baseSuffix: Record<ChaosProtocol, string> = { openai: '/v1', anthropic: '/v1', gemini: '/v1beta', bedrock: '' };

/** Which protocols' channels serve each endpoint (the gateway translates where the protocol differs). */
const protocolsOf: Record<ChaosEndpoint, readonly ChaosProtocol[]> = {
  chat: ['openai', 'anthropic', 'gemini', 'bedrock'],
  completions: ['openai'],
  embeddings: ['openai', 'gemini'],
  images: ['openai'],
  responses: ['openai', 'anthropic', 'gemini', 'bedrock'],
  messages: ['anthropic', 'openai', 'gemini', 'bedrock'],
};
const streamable: ReadonlySet<ChaosEndpoint> = new Set(['chat', 'completions', 'responses', 'messages']);
const endpointPaths: Record<ChaosEndpoint, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  images: '/v1/images/generations',
  responses: '/v1/responses',
  messages: '/v1/messages',
};
/** Slow or heavy scenarios (seconds held, 16 MiB events) are played once per combination, so the run stays within its time. */
const slowScenarios: ReadonlySet<ChaosScenario> = new Set(['one-byte-a-second', 'no-answer', 'oversized-event']);

function modelIdOf(protocol: ChaosProtocol, scenario: ChaosScenario, failover = false): string {
  return `chaos-${failover ? 'failover-' : ''}${protocol}-${scenario}`;
}

/** The scenarios a model also has a failover twin for: a well-behaved channel behind the misbehaving one. */
const failoverScenarios = chaosScenarios.filter(
  (scenario) => failsOverFrom(scenario, false) || failsOverFrom(scenario, true),
);

/** One planned request. */
interface PlannedRequest {
  endpoint: ChaosEndpoint;
  protocol: ChaosProtocol;
  scenario: ChaosScenario;
  stream: boolean;
  failover: boolean;
}

function bodyOf(endpoint: ChaosEndpoint, model: string, stream: boolean): Record<string, unknown> {
  switch (endpoint) {
    case 'chat':
      return { model, messages: [{ role: 'user', content: 'hello chaos' }], max_tokens: 16, stream };
    case 'completions':
      return { model, prompt: 'hello chaos', max_tokens: 16, stream };
    case 'embeddings':
      return { model, input: 'hello chaos' };
    case 'images':
      return { model, prompt: 'a calm sea', n: 1, size: '256x256', response_format: 'b64_json' };
    case 'responses':
      return { model, input: 'hello chaos', max_output_tokens: 16, stream, store: false };
    case 'messages':
      return { model, max_tokens: 16, messages: [{ role: 'user', content: 'hello chaos' }], stream };
    default: {
      const unknown: never = endpoint;
      throw new Error(`unknown endpoint ${String(unknown)}`);
    }
  }
}

/** A fixed, repeatable mix of requests: every endpoint × protocol × scenario, streamed and not, slow ones rarer. */
function planRequests(count: number): PlannedRequest[] {
  const combinations: PlannedRequest[] = [];
  for (const endpoint of Object.keys(protocolsOf) as ChaosEndpoint[]) {
    for (const protocol of protocolsOf[endpoint]) {
      for (const scenario of chaosScenarios) {
        for (const stream of streamable.has(endpoint) ? [false, true] : [false]) {
          combinations.push({ endpoint, protocol, scenario, stream, failover: false });
          if (failsOverFrom(scenario, stream))
            combinations.push({ endpoint, protocol, scenario, stream, failover: true });
        }
      }
    }
  }
  const fast = combinations.filter((combination) => !slowScenarios.has(combination.scenario));
  const slow = combinations.filter((combination) => slowScenarios.has(combination.scenario));
  // Every combination once, then the fast ones again in a fixed stride until the count is reached.
  const planned = [...combinations];
  for (let index = 0; planned.length < count; index++)
    planned.push(fast[(index * 7919) % fast.length] as (typeof fast)[number]);
  expect(slow.length).toBeGreaterThan(0);
  return planned;
}

describe('a billed gateway behind vendors that misbehave in every way', () => {
  let vendor: ChaosVendor;
  let gateway: BillingTestGateway;
  let user: UserRecord;
  let clientKey: string;
  const answers: ChaosAnswer[] = [];
  const clientAgent = new Agent({ connections: concurrency * 2, bodyTimeout: 30_000, headersTimeout: 30_000 });
  let runMs = 0;

  beforeAll(async () => {
    vendor = await startChaosVendor({
      awsSecretAccessKey: bedrockSecretParts[1] ?? '',
      oversizedBytes: upstreamMaxBodyBytes * 10,
      oversizedEventCharacters: Math.ceil(maximumStreamEventCharacters * 1.25),
    });
    const prices: ModelPrice[] = [];
    for (const protocol of Object.keys(secrets) as ChaosProtocol[]) {
      for (const scenario of chaosScenarios) prices.push(createUnitPrice(modelIdOf(protocol, scenario)));
      for (const scenario of failoverScenarios) prices.push(createUnitPrice(modelIdOf(protocol, scenario, true)));
    }
    gateway = await startBillingTestGateway({
      models: ['chaos-unused'],
      prices,
      config: {
        upstreamHeadersTimeoutMs,
        upstreamBodyTimeoutMs,
        upstreamMaxBodyBytes,
        upstreamConnectionsPerOrigin: 128,
      },
    });
    for (const protocol of Object.keys(secrets) as ChaosProtocol[]) {
      const vendorModel =
        protocol === 'bedrock' ? 'anthropic.claude-3-5-sonnet-20240620-v1:0' : `${protocol}-chaos-model`;
      const settings: Record<string, string> =
        protocol === 'bedrock' ? { region: 'us-east-1' } : protocol === 'openai' ? { responsesApi: 'true' } : {};
      for (const scenario of chaosScenarios) {
        const failoverModel = failoverScenarios.includes(scenario)
          ? { [modelIdOf(protocol, scenario, true)]: vendorModel }
          : {};
        // Tried first for its failover twin: the well-behaved channel below answers when it fails before the first byte.
        await gateway.createChannel({
          protocol,
          baseUrl: vendor.baseUrlFor(scenario, baseSuffix[protocol]),
          secret: secrets[protocol],
          models: { [modelIdOf(protocol, scenario)]: vendorModel, ...failoverModel },
          priority: 1,
          settings,
        });
      }
      const failoverModels = Object.fromEntries(
        failoverScenarios.map((scenario) => [modelIdOf(protocol, scenario, true), vendorModel]),
      );
      await gateway.createChannel({
        protocol,
        baseUrl: vendor.baseUrlFor('ok', baseSuffix[protocol]),
        secret: secrets[protocol],
        models: failoverModels,
        priority: 0,
        settings,
      });
    }
    user = await gateway.createUser();
    await gateway.topUp(user, 1_000_000_000_000);
    clientKey = (await gateway.createKey(user)).secret;

    const plan = planRequests(requestCount);
    const startedAt = Date.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < plan.length) {
        const planned = plan[next++];
        if (!planned) break;
        answers.push(await sendOne(planned));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
    runMs = Date.now() - startedAt;
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    await vendor?.close();
    await clientAgent.close();
  });

  async function sendOne(planned: PlannedRequest): Promise<ChaosAnswer> {
    const { endpoint, protocol, scenario, stream, failover } = planned;
    const startedAt = Date.now();
    const base = { endpoint, protocol, scenario, stream, failover };
    try {
      const response = await request(gateway.url + endpointPaths[endpoint], {
        method: 'POST',
        dispatcher: clientAgent,
        headers: {
          authorization: `Bearer ${clientKey}`,
          'content-type': 'application/json',
          ...(endpoint === 'messages' ? { 'anthropic-version': '2023-06-01' } : {}),
        },
        body: JSON.stringify(bodyOf(endpoint, modelIdOf(protocol, scenario, failover), stream)),
      });
      const text = await response.body.text();
      const contentType = String(response.headers['content-type'] ?? '');
      return { ...base, status: response.statusCode, contentType, text, elapsedMs: Date.now() - startedAt };
    } catch (error) {
      return {
        ...base,
        status: 0,
        contentType: '',
        text: '',
        elapsedMs: Date.now() - startedAt,
        transportError: String(error),
      };
    }
  }

  /** Every broken invariant, as `invariant: scenario (endpoint/protocol/stream) × count: first detail`, for one assertion. */
  function problemsFor(invariant: ChaosInvariant): string[] {
    const bySituation = new Map<string, { count: number; detail: string }>();
    const allSecrets = [...Object.values(secrets), ...bedrockSecretParts];
    for (const answer of answers) {
      for (const problem of findChaosAnswerProblems(answer, { secrets: allSecrets, maximumElapsedMs })) {
        if (problem.invariant !== invariant) continue;
        const situation = `${answer.scenario} (${answer.endpoint}/${answer.protocol}/${answer.stream ? 'stream' : 'whole'}${answer.failover ? '/failover' : ''})`;
        const entry = bySituation.get(situation);
        if (entry) entry.count += 1;
        else bySituation.set(situation, { count: 1, detail: problem.detail });
      }
    }
    return [...bySituation.entries()]
      .map(([situation, { count, detail }]) => `${situation} ×${count}: ${detail}`)
      .sort();
  }

  it('sends thousands of mixed requests within a bounded time and every scenario is played', () => {
    expect(answers.length).toBeGreaterThanOrEqual(requestCount);
    expect(runMs).toBeLessThan(150_000);
    for (const scenario of chaosScenarios)
      expect(vendor.requestsByScenario.get(scenario) ?? 0, scenario).toBeGreaterThan(0);
  });

  it('stays up: the gateway still answers a well-behaved vendor', async () => {
    const response = await request(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: clientAgent,
      headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(bodyOf('chat', modelIdOf('openai', 'ok'), false)),
    });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
  });

  it('never relays a 3xx', () => {
    expect(problemsFor('no 3xx')).toEqual([]);
  });

  it("answers every failure in the client protocol's error shape", () => {
    expect(problemsFor('error is OpenAI-shaped (Anthropic-shaped on /v1/messages)')).toEqual([]);
  });

  it("answers a vendor's fault with 502, 503 or 504 (the vendor's own 400 for a refused key)", () => {
    expect(problemsFor('error status fits the fault')).toEqual([]);
  });

  it('never answers 200 with a body that is not the endpoint’s shape', () => {
    expect(problemsFor('success is well-formed')).toEqual([]);
  });

  it("passes the vendor's success through, garbage SSE lines ignored", () => {
    expect(problemsFor('vendor success reaches the client')).toEqual([]);
  });

  it('fails over to a well-behaved channel when the vendor fails before the first byte', () => {
    expect(problemsFor('a fault before the first byte fails over')).toEqual([]);
  });

  it('never ends a stream complete after an error, and ends every broken stream with an error', () => {
    expect(problemsFor('a stream never ends complete after an error')).toEqual([]);
    expect(problemsFor('a broken stream never ends complete')).toEqual([]);
  });

  it("never shows a channel's secret", () => {
    expect(problemsFor('no channel secret')).toEqual([]);
  });

  it('answers every request within the configured timeouts', () => {
    expect(problemsFor('answered within the timeouts')).toEqual([]);
  });

  it('reconciles afterwards: every balance equals its ledger (gateway billing verify)', async () => {
    await settleEverything([gateway.running], user.id);
    const mismatches = await gateway.running.billing.store.findBalanceMismatches();
    expect(mismatches).toEqual([]);
    expect(gateway.running.billing.memory.user(user.id).held).toBe(0);
  });

  it("charges nothing for a request the vendor's fault failed before its first byte (BILLING.md, Failure)", async () => {
    await settleEverything([gateway.running], user.id);
    const logs: UsageLogRecord[] = [];
    let before: { createdAt: number; id: string } | undefined;
    for (;;) {
      const page = await gateway.running.billing.store.listUsageLogs({
        userId: user.id,
        limit: 500,
        ...(before ? { before } : {}),
      });
      logs.push(...page);
      const last = page.at(-1);
      if (page.length < 500 || !last) break;
      before = { createdAt: last.createdAt, id: last.id };
    }
    expect(logs.length).toBeGreaterThan(0);
    const chargedFailures = logs
      .filter((log) => log.status !== 200 && log.cost !== 0)
      .map((log) => `${log.model} ${log.endpoint} ${log.status} cost ${log.cost}`);
    expect(chargedFailures).toEqual([]);
    // Only answers that reached the client as a 200 may cost anything: never more charged rows than 200 answers.
    expect(logs.filter((log) => log.cost > 0).length).toBeLessThanOrEqual(
      answers.filter((answer) => answer.status === 200).length + 1,
    );
  });
});
