import { GatewayError } from '../../core/gateway-error.js';

/** AWS credentials read from a channel secret. */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** present for temporary (STS) credentials */
  sessionToken?: string;
}

/**
 * Reads `<accessKeyId>:<secretAccessKey>` or `<accessKeyId>:<secretAccessKey>:<sessionToken>`.
 * Session tokens are base64 and never contain `:`, so everything after the second colon is the token.
 */
export function parseBedrockCredentials(secret: string): BedrockCredentials {
  const firstColon = secret.indexOf(':');
  const secondColon = firstColon === -1 ? -1 : secret.indexOf(':', firstColon + 1);
  const accessKeyId = firstColon === -1 ? '' : secret.slice(0, firstColon).trim();
  const secretAccessKey = (
    secondColon === -1 ? secret.slice(firstColon + 1) : secret.slice(firstColon + 1, secondColon)
  ).trim();
  const sessionToken = secondColon === -1 ? undefined : secret.slice(secondColon + 1).trim();
  if (!accessKeyId || !secretAccessKey || firstColon === -1) {
    // A misconfigured channel, not the client's fault: another channel may serve the request.
    throw new GatewayError(
      'service_unavailable',
      'The Bedrock channel secret is not `<access key id>:<secret access key>`.',
    );
  }
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}
