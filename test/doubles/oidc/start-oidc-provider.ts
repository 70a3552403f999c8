// A real OpenID Provider on loopback (panva's oidc-provider) for sign-in tests. Its development login and consent
// pages are driven with plain HTTP (see driveOidcSignIn); accounts and their email claims are seeded by the test.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** An account the provider knows, by the login typed on its login page (which becomes `sub`). */
export interface OidcFakeAccount {
  email: string;
  emailVerified: boolean;
  name: string;
}

/** The provider, listening before it knows the client's redirect URI (the gateway starts after it). */
export interface OidcFake {
  /** the issuer, `http://127.0.0.1:PORT` */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** seeds or replaces an account */
  addAccount(login: string, account: OidcFakeAccount): void;
  /** registers the gateway as the client; call once the gateway's callback URL is known */
  registerClient(redirectUri: string): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 and a free port; the provider itself is built when the client is registered. */
export async function startOidcFake(): Promise<OidcFake> {
  const clientId = 'gateway-test-client';
  const clientSecret = randomBytes(24).toString('hex');
  const accounts = new Map<string, OidcFakeAccount>();
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server: Server = createServer((request, response) => {
    if (handler === undefined) {
      response.statusCode = 503;
      response.end('the client is not registered yet');
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  return {
    issuer,
    clientId,
    clientSecret,
    addAccount(login, account) {
      accounts.set(login, account);
    },
    registerClient(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: [randomBytes(16).toString('hex')] },
        jwks: { keys: [{ ...signingKey, kid: 'test-signing-key', use: 'sig', alg: 'RS256' }] },
        pkce: { required: () => true },
        // Claims go in the ID token itself, so the gateway needs no userinfo call.
        conformIdTokenClaims: false,
        async findAccount(_context, accountId) {
          const account = accounts.get(accountId);
          return {
            accountId,
            async claims() {
              return account === undefined
                ? { sub: accountId }
                : { sub: accountId, email: account.email, email_verified: account.emailVerified, name: account.name };
            },
          };
        },
      });
      const callback = provider.callback();
      // Koa's callback returns a promise that settles when the answer is written; it handles its own errors.
      handler = (request, response) => void callback(request, response);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
