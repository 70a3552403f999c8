import { randomBytes } from 'node:crypto';

/** A fresh gateway id with OpenAI's look (`resp_`, `msg_`, `fc_`, ... then 48 hex digits); never a vendor's id. */
export function createGatewayItemId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
