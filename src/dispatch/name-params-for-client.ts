import type { ClientAnswerCodec } from '../core/canonical/client-answer-codec.js';
import { GatewayError } from '../core/gateway-error.js';

/**
 * A 400 from encoding, with the parameter named as the client protocol names it: `param`, and every `` `name` `` the
 * message quotes (Anthropic-shaped errors carry no `param`, so the message is what a Messages client reads). Anything
 * else, or a codec without `clientParam` (chat), is returned as it is.
 */
export function nameParamsForClient(error: unknown, codec: ClientAnswerCodec): unknown {
  const clientParam = codec.clientParam?.bind(codec);
  if (!clientParam || !(error instanceof GatewayError) || error.code !== 'invalid_request_error') return error;
  const message = error.message.replace(
    /`([A-Za-z_][\w.[\]]*)`/g,
    (_quoted, name: string) => `\`${clientParam(name)}\``,
  );
  const param = error.param === null ? null : clientParam(error.param);
  return new GatewayError(error.code, message, { param, headers: error.headers });
}
