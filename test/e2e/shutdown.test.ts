// Stopping the gateway lets in-flight requests finish within the grace period, then closes what is left: a request
// stuck on a vendor that never answers must not keep the process from stopping.
import { rm } from 'node:fs/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

describe('graceful shutdown', () => {
  let gateway: TestGateway;
  let simulator: OpenAiSimulator;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: 'sk-upstream' });
    gateway = await startTestGateway({ config: { shutdownGraceMs: 300, upstreamHeadersTimeoutMs: 120_000 } });
    await gateway.createChannel({
      baseUrl: simulator.url,
      secret: 'sk-upstream',
      models: ['slow-model', 'stuck-model'],
      modelMapping: { 'slow-model': 'sim-slow-stream', 'stuck-model': 'sim-hang' },
    });
  });

  afterAll(async () => {
    await simulator?.close();
    await rm(gateway.config.dataDirectory, { recursive: true, force: true });
  });

  it('finishes a stream already under way, then stops although another request hangs upstream', async () => {
    const apiKey = (await gateway.createKey()).secret;
    const send = (model: string, stream: boolean) =>
      request(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'one two three' }] }),
      });
    const stuck = send('stuck-model', false).then(
      (response) => response.body.text().then(() => 'answered'),
      () => 'connection closed',
    );
    const streaming = await send('slow-model', true);
    while (simulator.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));

    const closed = gateway.running.close();
    const streamText = await streaming.body.text();
    await closed;

    expect(streamText.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await stuck).toBe('connection closed');
    expect(simulator.abortedRequestCount()).toBeGreaterThanOrEqual(1);
  });
});
