// Checks AWS Signature Version 4 on a received request by signing it again with the same library and the known secret.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import {
  invalidSignatureError,
  missingAuthenticationError,
  unrecognizedClientError,
  type BedrockSimulatedError,
} from './bedrock-simulator-errors.js';

/** AWS credentials the simulator accepts. */
export interface BedrockSimulatorCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** when set, requests must carry it in `x-amz-security-token` */
  sessionToken?: string;
}

/** What a signature must match. */
export interface SignatureExpectation {
  credentials: BedrockSimulatorCredentials;
  region: string;
  /** Unix milliseconds now; with `maximumClockSkewMs`, signatures too far from it are refused like AWS does */
  now?: () => number;
  maximumClockSkewMs?: number;
}

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;
const amzDatePattern = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** Returns the error AWS would answer with, or undefined when the signature is valid for this exact method, path, headers and body. */
export async function verifyBedrockSignature(
  request: IncomingMessage,
  rawBody: Buffer,
  expectation: SignatureExpectation,
): Promise<BedrockSimulatedError | undefined> {
  const authorization = headerText(request, 'authorization');
  const amzDate = headerText(request, 'x-amz-date');
  if (!authorization || !amzDate) return missingAuthenticationError();
  const match = authorizationPattern.exec(authorization);
  const dateMatch = amzDatePattern.exec(amzDate);
  if (!match || !dateMatch) return invalidSignatureError();
  const [, accessKeyId, scopeDate, region, service, signedHeaderList] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (accessKeyId !== expectation.credentials.accessKeyId) return unrecognizedClientError();
  if (region !== expectation.region || service !== 'bedrock' || !amzDate.startsWith(scopeDate))
    return invalidSignatureError();
  const signingDate = new Date(
    Date.UTC(+dateMatch[1]!, +dateMatch[2]! - 1, +dateMatch[3]!, +dateMatch[4]!, +dateMatch[5]!, +dateMatch[6]!),
  );
  if (
    expectation.maximumClockSkewMs !== undefined &&
    Math.abs((expectation.now ?? Date.now)() - signingDate.getTime()) > expectation.maximumClockSkewMs
  ) {
    return invalidSignatureError();
  }
  const signedHeaderNames = signedHeaderList.split(';');
  if (!signedHeaderNames.includes('host')) return invalidSignatureError();
  if (
    expectation.credentials.sessionToken !== undefined &&
    headerText(request, 'x-amz-security-token') !== expectation.credentials.sessionToken
  ) {
    return unrecognizedClientError();
  }
  // The signer trusts x-amz-content-sha256 when present, so the body is checked against it separately, as AWS does.
  const contentHash = headerText(request, 'x-amz-content-sha256');
  if (contentHash !== undefined && contentHash !== createHash('sha256').update(rawBody).digest('hex'))
    return invalidSignatureError();

  const headers: Record<string, string> = {};
  for (const name of signedHeaderNames) {
    const value = headerText(request, name);
    if (value === undefined) return invalidSignatureError();
    headers[name] = value;
  }
  const url = new URL(request.url ?? '/', 'http://placeholder');
  const signer = new SignatureV4({ service: 'bedrock', region, credentials: expectation.credentials, sha256: Sha256 });
  const resigned = await signer.sign(
    {
      method: request.method ?? 'POST',
      protocol: 'http:',
      hostname: headers.host?.split(':')[0] ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: rawBody.toString('utf8'),
    },
    { signingDate },
  );
  return resigned.headers.authorization === authorization ? undefined : invalidSignatureError();
}

function headerText(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
