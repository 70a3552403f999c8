import { GatewayError } from '../../core/gateway-error.js';

/** OpenAI's answer to a field it does not define: 400 `Unrecognized request argument supplied: <field>`, naming it. */
export function unrecognizedArgumentError(field: string): GatewayError {
  return new GatewayError('invalid_request_error', `Unrecognized request argument supplied: ${field}`, {
    param: field,
  });
}
