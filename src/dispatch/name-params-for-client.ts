import type { ClientAnswerCodec } from '../core/canonical/client-answer-codec.js';
import { GatewayError } from '../core/gateway-error.js';

/**
 * A 400 from encoding, with the parameter named as the client protocol names it: `param`, and every `` `name` `` the
 * message quotes (Anthropic-shaped errors carry no `param`, so the message is what a Messages client reads). When a
 * renamed parameter means the opposite in the client's protocol (ClientAnswerCodec.clientParamInverts), the quoted
 * values `` `true` `` and `` `false` `` the message advises are swapped too. Anything else, or a codec without
 * `clientParam` (chat), is returned as it is.
 */
export function nameParamsForClient(error: unknown, codec: ClientAnswerCodec): unknown {
  const clientParam = codec.clientParam?.bind(codec);
  if (!clientParam || !(error instanceof GatewayError) || error.code !== 'invalid_request_error') return error;
  const inverts = (name: string): boolean => codec.clientParamInverts?.(name) ?? false;
  let invertedNamed = error.param !== null && inverts(error.param);
  const renamed = error.message.replace(/`([A-Za-z_][\w.[\]]*)`/g, (quoted, name: string) => {
    if (name === 'true' || name === 'false') return quoted;
    if (inverts(name)) invertedNamed = true;
    return `\`${clientParam(name)}\``;
  });
  const message = invertedNamed
    ? renamed.replace(/`(true|false)`/g, (_quoted, value: string) => (value === 'true' ? '`false`' : '`true`'))
    : renamed;
  const param = error.param === null ? null : clientParam(error.param);
  return new GatewayError(error.code, message, { param, headers: error.headers });
}
