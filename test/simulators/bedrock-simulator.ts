// A loopback simulator of the AWS Bedrock runtime Converse API: verifies SigV4, validates bodies like AWS,
// answers deterministically, and streams in real AWS event-stream framing. Special model ids misbehave on purpose:
// `sim-error-<status>` answers that status with the matching AWS exception; `sim-hang` never answers;
// `sim-slow-stream` waits 50 ms between frames; `sim-broken-stream` breaks the connection after three frames (or
// half a JSON body); `sim-broken-before-first-event` breaks it right after the 200 headers; `sim-stream-error-event`
// and `sim-stream-exception-<type>` send an exception frame after three frames; `sim-cached-prompt` reports cache use.
// Requests with `cachePoint` checkpoints go through a prefix cache (bedrock-simulator-prompt-cache.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BedrockSimulatedError, bedrockStatusError, validationError } from './bedrock-simulator-errors.js';
import { generateConverseAnswer, type ConverseAnswer } from './bedrock-simulator-model.js';
import { BedrockSimulatorPromptCache } from './bedrock-simulator-prompt-cache.js';
import { verifyBedrockSignature, type BedrockSimulatorCredentials } from './bedrock-simulator-signature.js';
import { converseStreamEvents, encodeStreamEvent, encodeStreamException } from './bedrock-simulator-stream.js';
import { validateConverseRequest } from './bedrock-simulator-validation.js';

/** One request the simulator received (the same fields as the OpenAI simulator's record, plus the Bedrock route). */
export interface BedrockRecordedRequest {
  /** HTTP method, e.g. `POST` */
  method: string;
  /** URL path as received (model id still percent-encoded) */
  path: string;
  /** the decoded model id from the path, e.g. `anthropic.claude-3-5-sonnet-20240620-v1:0` */
  modelId: string;
  /** `converse` or `converse-stream` */
  operation: string;
  /** lower-case header names */
  headers: Record<string, string | string[] | undefined>;
  /** parsed JSON body, or undefined when it was not JSON */
  body: unknown;
}

/** A running simulator. */
export interface BedrockSimulator {
  /** base URL to put in a channel, e.g. `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** the channel secret that signs correctly: `<accessKeyId>:<secretAccessKey>` */
  channelSecret: string;
  /** the region signatures must be scoped to */
  region: string;
  /** every request received, in order */
  requests: BedrockRecordedRequest[];
  /** requests whose client connection closed before the answer finished */
  abortedRequestCount(): number;
  /** clears the recorded requests and the aborted counter */
  reset(): void;
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface BedrockSimulatorOptions {
  port?: number;
  /** the credentials it accepts; default `bedrockSimulatorCredentials` */
  credentials?: BedrockSimulatorCredentials;
  /** default us-east-1 */
  region?: string;
  /** wait between stream frames, in milliseconds; default 0 */
  streamFrameDelayMs?: number;
  /** refuse signatures dated further than this from now, like AWS (15 minutes); default: no check, so tests may sign with a fixed clock */
  maximumClockSkewMs?: number;
}

/** The test credentials the simulator accepts by default. */
export const bedrockSimulatorCredentials: BedrockSimulatorCredentials = {
  accessKeyId: 'AKIASIMULATOR0000001',
  secretAccessKey: 'simulator/secret+access/key0000000000000',
};

const pathPattern = /^\/model\/([^/]+)\/(converse|converse-stream)$/;
const errorModelPattern = /^sim-error-([45]\d\d)$/;
const streamExceptionPattern = /^sim-stream-exception-([A-Za-z]+)$/;
/** The contract suite's generic name for "the vendor sends an error event mid-stream": Bedrock's is serviceUnavailableException. */
const streamErrorEventModel = 'sim-stream-error-event';
const slowStreamDelayMs = 50;
const framesBeforeBreak = 3;
const brokenStreamHeadersDelayMs = 20;

/** Starts a simulator on 127.0.0.1. */
export async function startBedrockSimulator(options: BedrockSimulatorOptions = {}): Promise<BedrockSimulator> {
  const credentials = options.credentials ?? bedrockSimulatorCredentials;
  const region = options.region ?? 'us-east-1';
  const requests: BedrockRecordedRequest[] = [];
  const promptCache = new BedrockSimulatorPromptCache();
  let abortedCount = 0;
  const server = createServer((request, response) => {
    const exchange = new Exchange(response, () => abortedCount++);
    void handleRequest(request, exchange, { ...options, credentials, region, promptCache }, requests).catch(
      (error: unknown) => {
        exchange.sendError(new BedrockSimulatedError(500, 'InternalServerException', String(error)));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    channelSecret: `${credentials.accessKeyId}:${credentials.secretAccessKey}${credentials.sessionToken ? `:${credentials.sessionToken}` : ''}`,
    region,
    requests,
    abortedRequestCount: () => abortedCount,
    reset: () => {
      requests.length = 0;
      abortedCount = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type ResolvedOptions = BedrockSimulatorOptions & {
  credentials: BedrockSimulatorCredentials;
  region: string;
  promptCache: BedrockSimulatorPromptCache;
};

async function handleRequest(
  request: IncomingMessage,
  exchange: Exchange,
  options: ResolvedOptions,
  requests: BedrockRecordedRequest[],
): Promise<void> {
  const rawBody = await readBody(request);
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  const route = pathPattern.exec(path);
  const modelId = route ? safeDecode(route[1] ?? '') : '';
  const body = parseJson(rawBody);
  requests.push({
    method: request.method ?? '',
    path,
    modelId,
    operation: route?.[2] ?? '',
    headers: { ...request.headers },
    body,
  });

  const signatureError = await verifyBedrockSignature(request, rawBody, {
    credentials: options.credentials,
    region: options.region,
    maximumClockSkewMs: options.maximumClockSkewMs,
  });
  if (signatureError) return exchange.sendError(signatureError);
  if (request.method !== 'POST' || !route)
    return exchange.sendError(new BedrockSimulatedError(404, 'UnknownOperationException', 'Unknown operation.'));
  const errorStatus = errorModelPattern.exec(modelId)?.[1];
  if (errorStatus) return exchange.sendError(bedrockStatusError(Number(errorStatus), modelId));
  if (modelId === 'sim-hang') return;
  if (body === undefined)
    return exchange.sendError(validationError('Malformed input request, please reformat your input and try again.'));
  let answer: ConverseAnswer;
  try {
    const validated = validateConverseRequest(body);
    answer = generateConverseAnswer(validated, modelId, options.promptCache.useOf(validated, modelId));
  } catch (error) {
    if (error instanceof BedrockSimulatedError) return exchange.sendError(error);
    throw error;
  }
  if (route[2] === 'converse') return sendConverse(exchange, answer, modelId);
  return sendConverseStream(exchange, answer, modelId, options);
}

async function sendConverse(exchange: Exchange, answer: ConverseAnswer, modelId: string): Promise<void> {
  const content = answer.blocks.map((block) =>
    block.kind === 'text'
      ? { text: block.text }
      : { toolUse: { toolUseId: block.toolUseId, name: block.name, input: block.input } },
  );
  const payload = JSON.stringify({
    output: { message: { role: 'assistant', content } },
    stopReason: answer.stopReason,
    usage: answer.usage,
    metrics: { latencyMs: 42 },
  });
  if (modelId === 'sim-broken-stream' || modelId === 'sim-broken-before-first-event') {
    exchange.response.writeHead(200, { 'content-type': 'application/json' });
    await exchange.write(Buffer.from(payload.slice(0, Math.ceil(payload.length / 2))));
    return exchange.breakOnPurpose();
  }
  exchange.response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'sim-request' });
  exchange.response.end(payload);
}

async function sendConverseStream(
  exchange: Exchange,
  answer: ConverseAnswer,
  modelId: string,
  options: ResolvedOptions,
): Promise<void> {
  exchange.response.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': 'sim-request',
  });
  const frames = converseStreamEvents(answer).map(encodeStreamEvent);
  if (modelId === 'sim-broken-before-first-event') {
    // The 200 and its headers reach the client, then the connection dies before the first frame.
    exchange.response.flushHeaders();
    await exchange.wait(brokenStreamHeadersDelayMs);
    return exchange.breakOnPurpose();
  }
  const exceptionType =
    modelId === streamErrorEventModel ? 'serviceUnavailableException' : streamExceptionPattern.exec(modelId)?.[1];
  const delayMs =
    modelId === 'sim-slow-stream'
      ? Math.max(slowStreamDelayMs, options.streamFrameDelayMs ?? 0)
      : (options.streamFrameDelayMs ?? 0);
  const cutAt = modelId === 'sim-broken-stream' || exceptionType ? framesBeforeBreak : frames.length;
  for (const frame of frames.slice(0, cutAt)) {
    if (!exchange.isOpen) return;
    await exchange.write(frame);
    await exchange.wait(delayMs);
  }
  if (modelId === 'sim-broken-stream') return exchange.breakOnPurpose();
  if (exceptionType)
    exchange.response.write(encodeStreamException(exceptionType, `Simulated ${exceptionType} mid-stream.`));
  exchange.response.end();
}

/** One response: counts client aborts, and can break the connection on purpose. */
class Exchange {
  readonly response: ServerResponse;
  private closed = false;
  private brokenOnPurpose = false;

  constructor(response: ServerResponse, onClientAbort: () => void) {
    this.response = response;
    response.once('close', () => {
      this.closed = true;
      if (!response.writableFinished && !this.brokenOnPurpose) onClientAbort();
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  sendError(error: BedrockSimulatedError): void {
    if (this.closed || this.response.headersSent) return;
    this.response.writeHead(error.status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${error.exceptionType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    });
    this.response.end(JSON.stringify(error.toBody()));
  }

  breakOnPurpose(): void {
    this.brokenOnPurpose = true;
    this.response.destroy();
  }

  /** Writes and resolves once flushed (or the connection closed), so frames leave one by one. */
  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        this.response.off('close', finish);
        resolve();
      };
      this.response.once('close', finish);
      this.response.write(bytes, finish);
    });
  }

  wait(milliseconds: number): Promise<void> {
    if (milliseconds <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.response.off('close', finish);
        resolve();
      };
      const timer = setTimeout(finish, milliseconds);
      this.response.once('close', finish);
    });
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
