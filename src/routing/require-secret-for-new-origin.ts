import { GatewayError } from '../core/gateway-error.js';

/**
 * A channel's secret is bound to the origin (scheme, host, port) of its base URL: moving the channel to another
 * origin without giving the secret again is refused with 400 on `secret`, so a test request or live traffic can never
 * carry the stored secret to a host it was not given for. A new path on the same origin keeps the secret.
 */
export function requireSecretForNewOrigin(
  currentBaseUrl: string,
  newBaseUrl: string | undefined,
  secretGiven: boolean,
): void {
  if (newBaseUrl === undefined || secretGiven) return;
  const currentOrigin = new URL(currentBaseUrl).origin;
  const newOrigin = new URL(newBaseUrl).origin;
  if (newOrigin === currentOrigin) return;
  throw new GatewayError(
    'invalid_request_error',
    `The channel's secret was given for ${currentOrigin}; moving the channel to ${newOrigin} needs the secret again: send secret with baseUrl.`,
    { param: 'secret' },
  );
}
