import type * as openid from 'openid-client';

let loading: Promise<typeof openid> | undefined;

/**
 * openid-client (with oauth4webapi and jose), loaded on the first sign-in rather than at start: a gateway whose
 * users never sign in through GitHub or OpenID does not keep its 0.9 MB of heap alive.
 */
export function loadOpenidClient(): Promise<typeof openid> {
  loading ??= import('openid-client');
  return loading;
}
