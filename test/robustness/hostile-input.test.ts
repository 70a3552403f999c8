// Whatever a client sends, over a raw socket, to any /v1 route or the console sign-in: the gateway answers in
// OpenAI's error shape with a 4xx (never a 5xx of its own), leaks no upstream secret or internal detail, keeps
// keep-alive connections in step, and stays up. A few thousand cases come from a fixed seed, so a failure names
// the case and repeats on every run; the gateway runs in its own process, as in production.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { announcesClose, findExchangeProblems } from './find-exchange-problems.js';
import { startGatewayProcess, type GatewayProcess } from './gateway-process/start-gateway-process.js';
import {
  createJsonRoutes,
  encodeModelListRequest,
  encodeRequest,
  type HostileCase,
  type HostileContext,
} from './hostile-cases/hostile-case.js';
import {
  chunkedCase,
  headerCase,
  pathCase,
  requestLineCase,
  slowClientCase,
  type HostileLimits,
} from './hostile-cases/http-framing-cases.js';
import { malformedJsonCase, wrongFieldCase } from './hostile-cases/json-body-cases.js';
import {
  brokenMultipartCase,
  multipartToJsonEndpointCase,
  wrongFormFieldCase,
} from './hostile-cases/multipart-cases.js';
import { pipelinedCase } from './hostile-cases/pipelined-cases.js';
import { exchangeRawHttp } from './raw-http-exchange.js';

// Fixed, so every run sends the same bytes; HOSTILE_SEED and HOSTILE_CASES explore further by hand.
const seed = Number(process.env.HOSTILE_SEED ?? 20_260_808);
const caseCount = Number(process.env.HOSTILE_CASES ?? 3_000);
const parallelConnections = 12;
const upstreamSecret = `sk-upstream-RECOGNISABLE-${seed}`;
const limits: HostileLimits = { bodyLimitBytes: 256 * 1024, uploadLimitBytes: 64 * 1024 };

/** The generated cases, weighted towards the families with the most variety. */
function generateCases(context: HostileContext): HostileCase[] {
  const jsonRoutes = createJsonRoutes(context);
  const everyCase = fc.oneof(
    { arbitrary: malformedJsonCase(jsonRoutes, context), weight: 4 },
    { arbitrary: wrongFieldCase(jsonRoutes, context), weight: 8 },
    { arbitrary: brokenMultipartCase(context, limits), weight: 3 },
    { arbitrary: wrongFormFieldCase(context), weight: 2 },
    { arbitrary: multipartToJsonEndpointCase(context), weight: 1 },
    { arbitrary: requestLineCase(context), weight: 2 },
    { arbitrary: headerCase(context, limits), weight: 3 },
    { arbitrary: pathCase(context), weight: 3 },
    { arbitrary: chunkedCase(context), weight: 2 },
    { arbitrary: slowClientCase(context), weight: 1 },
    { arbitrary: pipelinedCase(context), weight: 3 },
  );
  return fc.sample(everyCase, { seed, numRuns: caseCount });
}

describe('hostile input over raw sockets', () => {
  let simulator: OpenAiSimulator;
  let gateway: GatewayProcess;
  let context: HostileContext;
  let secrets: string[];

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret, recordRequests: false });
    gateway = await startGatewayProcess({
      ROBUSTNESS_UPSTREAM_URL: simulator.url,
      ROBUSTNESS_UPSTREAM_SECRET: upstreamSecret,
      ROBUSTNESS_MODELS:
        'gpt-4o,gpt-3.5-turbo-instruct,text-embedding-3-small,dall-e-2,dall-e-3,gpt-image-1,whisper-1,gpt-4o-mini-tts,omni-moderation-latest',
      GATEWAY_BODY_LIMIT_BYTES: String(limits.bodyLimitBytes),
      GATEWAY_UPLOAD_LIMIT_BYTES: String(limits.uploadLimitBytes),
      // Short client timeouts, so the stalled-client cases end quickly (with 408).
      GATEWAY_HEADERS_TIMEOUT_MS: '1000',
      GATEWAY_REQUEST_TIMEOUT_MS: '3000',
    });
    const { seed: seeded } = gateway;
    context = { apiKey: seeded.fundedKey, consoleEmail: seeded.consoleEmail, consolePassword: seeded.consolePassword };
    const upstream = new URL(simulator.url);
    secrets = [upstreamSecret, upstream.host, `:${upstream.port}`];
  });

  afterAll(async () => {
    await gateway?.stop();
    await simulator?.close();
  });

  async function runCase(testCase: HostileCase): Promise<string[]> {
    const port = gateway.seed.port;
    const exchange = await exchangeRawHttp({
      port,
      writes: testCase.writes,
      expectedResponses: testCase.expectations.length,
      headResponses: testCase.headResponses,
      timeoutMs: 10_000,
      keepOpen: true,
    });
    const problems = findExchangeProblems(testCase, exchange, secrets);
    const last = exchange.responses[exchange.responses.length - 1];
    const canFollowUp =
      exchange.socket !== undefined &&
      testCase.framingComplete &&
      last !== undefined &&
      !announcesClose(last) &&
      exchange.responses.length === testCase.expectations.length;
    if (canFollowUp) {
      // The server kept the connection open: the next request on it must get its own, right answer.
      const followUp = await exchangeRawHttp({
        port,
        socket: exchange.socket,
        writes: [encodeModelListRequest(context)],
        expectedResponses: 1,
        timeoutMs: 10_000,
      });
      const answer = followUp.responses[0];
      if (answer?.status !== 200 || !answer.body.includes('"object":"list"')) {
        problems.push(
          `keep-alive follow-up got ${answer ? `${answer.status} ${answer.body.slice(0, 120)}` : 'no answer'}${followUp.unparsable ? ` (${followUp.unparsable})` : ''}`,
        );
      }
    } else {
      exchange.socket?.destroy();
    }
    return problems.map((problem) => `${testCase.name}: ${problem}`);
  }

  it(`answers ${caseCount} generated hostile exchanges (seed ${seed}) with no 5xx, OpenAI-shaped errors, no leaks, and connections in step`, async () => {
    const cases = generateCases(context);
    const problems: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < cases.length) {
        const testCase = cases[next++] as HostileCase;
        problems.push(...(await runCase(testCase)));
      }
    };
    await Promise.all(Array.from({ length: parallelConnections }, worker));
    expect(problems.slice(0, 40), `${problems.length} problems`).toEqual([]);
    expect(gateway.isAlive(), gateway.errorOutput()).toBe(true);
  }, 120_000);

  it('is still up and serving afterwards', async () => {
    const exchange = await exchangeRawHttp({
      port: gateway.seed.port,
      writes: [
        encodeRequest({ method: 'GET', path: '/healthz' }),
        encodeRequest({
          method: 'POST',
          path: '/v1/chat/completions',
          headers: { authorization: `Bearer ${context.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'still alive?' }] }),
        }),
      ],
      expectedResponses: 2,
    });
    expect(exchange.responses.map((response) => response.status)).toEqual([200, 200]);
    expect(exchange.responses[1]?.body).toContain('Echo: still alive?');
    expect(gateway.isAlive()).toBe(true);
  });
});
