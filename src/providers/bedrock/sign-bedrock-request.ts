import type { VendorHttpRequest } from '../vendor-adapter.js';
import type { BedrockCredentials } from './parse-bedrock-credentials.js';

/** What to sign. */
export interface BedrockSigningInput {
  /** the full URL, path already percent-encoded (model ids carry `:`) */
  url: string;
  /** JSON body */
  body: string;
  region: string;
  credentials: BedrockCredentials;
  /** Unix milliseconds; the signature is valid for 15 minutes around it */
  signingTime: number;
  /** extra headers to send and sign, lower-case names */
  headers?: Record<string, string>;
}

/** The SigV4 service name Bedrock runtime endpoints are signed with. */
export const bedrockSigningService = 'bedrock';

/** Signs a POST with AWS Signature Version 4 and returns it with every header the signature covers. */
export async function signBedrockRequest(input: BedrockSigningInput): Promise<VendorHttpRequest> {
  // Loaded on the first Bedrock call, so gateways without Bedrock channels never pay its memory.
  const [{ Sha256 }, { SignatureV4 }] = await Promise.all([
    import('@aws-crypto/sha256-js'),
    import('@smithy/signature-v4'),
  ]);
  const url = new URL(input.url);
  const signer = new SignatureV4({
    service: bedrockSigningService,
    region: input.region,
    credentials: input.credentials,
    sha256: Sha256,
  });
  // `host` must be the exact value the HTTP client sends (with the port when it is not the default).
  const headers: Record<string, string> = { ...input.headers, host: url.host, 'content-type': 'application/json' };
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: {},
      headers,
      body: input.body,
    },
    { signingDate: new Date(input.signingTime) },
  );
  const signedHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) signedHeaders[name] = String(value);
  return { url: input.url, headers: signedHeaders, body: input.body };
}
