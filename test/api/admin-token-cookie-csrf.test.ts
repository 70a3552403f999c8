// An admin token carried in the session cookie is held to the CSRF rule like a session (only the bearer header
// skips it), and `Sec-Fetch-Site: none` does not excuse a write that names a foreign Origin.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../src/accounts/console-token.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';

let gateway: TestGateway;
let adminToken: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  adminToken = generateConsoleToken(adminTokenPrefix);
  await gateway.running.billing.store.createAdminToken({ tokenHash: hashConsoleToken(adminToken), name: 'csrf' });
});

afterAll(async () => {
  await gateway?.close();
});

/** Creates a model group with the admin token sent as `headers` say; returns the status. */
async function createGroup(headers: Record<string, string>): Promise<number> {
  const response = await request(`${gateway.url}/api/groups`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: uniqueName('csrf-group'), models: ['*'] }),
  });
  await response.body.dump();
  return response.statusCode;
}

describe('an admin token in the session cookie', () => {
  it('is refused on cross-site writes and accepted on same-origin ones', async () => {
    const cookie = `gateway_session=${adminToken}`;
    expect(await createGroup({ cookie, 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await createGroup({ cookie, origin: 'https://evil.example' })).toBe(403);
    expect(await createGroup({ cookie })).toBe(403);
    expect(await createGroup({ cookie, 'sec-fetch-site': 'none', origin: 'https://evil.example' })).toBe(403);
    expect(await createGroup({ cookie, 'sec-fetch-site': 'same-origin' })).toBe(201);
    expect(await createGroup({ cookie, origin: gateway.url })).toBe(201);
  });

  it('as a bearer header is not a browser credential, so no Fetch Metadata is asked for', async () => {
    expect(
      await createGroup({
        authorization: `Bearer ${adminToken}`,
        'sec-fetch-site': 'cross-site',
        origin: 'https://evil.example',
      }),
    ).toBe(201);
  });
});
