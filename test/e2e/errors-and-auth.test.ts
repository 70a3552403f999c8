import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import {
  createOpenAiClient,
  postRawJson,
  sendRawRequest,
  type RawResponse,
  type TestGateway,
} from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-errors-channel';
const bodyLimitBytes = 64 * 1024;
const helloRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] };

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: ['gpt-4o'], gateway: { config: { bodyLimitBytes } } });
  ({ simulator, gateway, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

function expectErrorAnswer(
  response: RawResponse,
  status: number,
  fields: { code?: string | null; type?: string; param?: string | null },
): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(expectErrorResponseShape(response.json())).toMatchObject(fields);
}

async function sdkRejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

function askWithKey(apiKey: string) {
  return createOpenAiClient(gateway, apiKey).chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hello' }],
  });
}

describe('authentication', () => {
  it('answers 401 invalid_api_key in the OpenAI error shape when the Authorization header is missing', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(helloRequest),
    });
    expectErrorAnswer(response, 401, { code: 'invalid_api_key', param: null });
  });

  it('answers 401 invalid_api_key when the header is not a bearer token', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/models',
      headers: { authorization: `Basic ${clientKey}` },
    });
    expectErrorAnswer(response, 401, { code: 'invalid_api_key' });
  });

  it('answers 401 invalid_api_key for an unknown key, without echoing the key', async () => {
    const unknownKey = generateApiKeySecret();
    const error = await sdkRejectionOf(askWithKey(unknownKey));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    expect(error.message).not.toContain(unknownKey);
    expect(simulator.requests).toHaveLength(0);
  });

  it('answers 401 invalid_api_key once a working key is disabled', async () => {
    const { secret, record } = await gateway.createKey();
    await askWithKey(secret);
    await gateway.store.setApiKeyStatus(record.id, 'disabled');
    await gateway.refreshRouting();
    const error = await sdkRejectionOf(askWithKey(secret));
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('accepts a disabled key again once it is re-enabled', async () => {
    const { secret, record } = await gateway.createKey();
    await gateway.store.setApiKeyStatus(record.id, 'disabled');
    await gateway.refreshRouting();
    await gateway.store.setApiKeyStatus(record.id, 'active');
    await gateway.refreshRouting();
    const completion = await askWithKey(secret);
    expect(completion.choices[0]?.message.content).toBe('Echo: hello');
  });

  it('answers 401 invalid_api_key for an expired key', async () => {
    const { secret } = await gateway.createKey({ expiresAt: Date.now() - 1000 });
    const error = await sdkRejectionOf(askWithKey(secret));
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(error.message).toContain('expired');
  });

  it('accepts a key whose expiry is still in the future', async () => {
    const { secret } = await gateway.createKey({ expiresAt: Date.now() + 3_600_000 });
    expect((await askWithKey(secret)).choices[0]?.message.content).toBe('Echo: hello');
  });

  it('answers 401 invalid_api_key for a key whose user is disabled', async () => {
    const user = await gateway.store.createUser({
      email: 'soon-disabled@example.test',
      displayName: 'Soon disabled',
      role: 'user',
      passwordHash: null,
      status: 'disabled',
    });
    const { secret } = await gateway.createKey({ user });
    const error = await sdkRejectionOf(askWithKey(secret));
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('accepts a key created in the store after the gateway started on its very first request, even right after a routing check', async () => {
    // The console or the CLI may create a key moments after the gateway last looked at the store (its periodic
    // check, or another request's): the gateway must still find the key at once, with no explicit refresh.
    await gateway.refreshRouting();
    const { secret } = await gateway.createKey({ refreshRouting: false });
    const response = await postRawJson(gateway, secret, '/v1/chat/completions', helloRequest);
    expect(response.status, response.text).toBe(200);
  });
});

describe('request errors', () => {
  it('answers 404 model_not_found for an unknown model, without calling upstream', async () => {
    const error = await sdkRejectionOf(
      createOpenAiClient(gateway, clientKey).chat.completions.create({
        model: 'no-such-model',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(simulator.requests).toHaveLength(0);
  });

  it('answers 400 invalid_request_error for malformed JSON', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/chat/completions',
      apiKey: clientKey,
      headers: { 'content-type': 'application/json' },
      body: '{"model": "gpt-4o", "messages": [',
    });
    expectErrorAnswer(response, 400, { code: 'invalid_request_error', type: 'invalid_request_error' });
  });

  it('answers 400 for an empty JSON body', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/chat/completions',
      apiKey: clientKey,
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expectErrorAnswer(response, 400, { type: 'invalid_request_error' });
  });

  it('answers 400 for a JSON body that is not an object', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', [helloRequest]);
    expectErrorAnswer(response, 400, { type: 'invalid_request_error' });
  });

  it('answers 400 naming model when model is missing', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', { messages: helloRequest.messages });
    expectErrorAnswer(response, 400, { code: 'invalid_request_error', param: 'model' });
    expect((response.json() as { error: { message: string } }).error.message).toContain('model');
  });

  it('answers 400 naming messages when messages is missing', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', { model: 'gpt-4o' });
    expectErrorAnswer(response, 400, { code: 'invalid_request_error', param: 'messages' });
  });

  it('answers 400 naming the exact field of an invalid message', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'robot', content: 'b' },
      ],
    });
    expectErrorAnswer(response, 400, { param: 'messages[1].role' });
  });

  it('answers 415 for a form-encoded body', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/chat/completions',
      apiKey: clientKey,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'model=gpt-4o',
    });
    expectErrorAnswer(response, 415, { code: 'unsupported_media_type' });
  });

  it('answers 415 for a body sent as text/plain, as fetch() does when no content-type is given', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/chat/completions',
      apiKey: clientKey,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(helloRequest),
    });
    expectErrorAnswer(response, 415, { code: 'unsupported_media_type' });
  });

  it('answers 413 for a JSON body over the configured body limit, without calling upstream', async () => {
    const oversized = { ...helloRequest, messages: [{ role: 'user', content: 'x'.repeat(bodyLimitBytes + 1) }] };
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', oversized);
    expectErrorAnswer(response, 413, { code: 'request_too_large' });
    expect(simulator.requests).toHaveLength(0);
  });

  it('accepts a JSON body just under the configured body limit', async () => {
    const padding = 'y'.repeat(bodyLimitBytes - 200);
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      ...helloRequest,
      messages: [{ role: 'user', content: padding }],
    });
    expect(response.status).toBe(200);
  });

  it('answers 404 in the OpenAI error shape for an unknown route', async () => {
    const response = await sendRawRequest(gateway, { path: '/v1/fine_tuning/jobs', apiKey: clientKey });
    expectErrorAnswer(response, 404, { type: 'invalid_request_error' });
  });

  it('keeps serving requests after all of the errors above', async () => {
    expect((await askWithKey(clientKey)).choices[0]?.message.content).toBe('Echo: hello');
  });
});
