// The soak run's traffic: a fixed cycle of request kinds (chat streamed and not, embeddings, transcription uploads,
// clients that leave mid-stream, and vendor faults at a bounded share), sent by workers until a deadline; each answer
// is classified as expected for its kind or not.
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { createWav } from '../test/helpers/create-wav.js';

/** One kind of request the soak run sends. */
export type SoakRequestKind =
  | 'chat'
  | 'chat-stream'
  | 'embeddings'
  | 'transcription'
  | 'client-abort'
  | 'vendor-error'
  | 'vendor-reset'
  | 'vendor-slow';

/** The simulator models the soak run's gateway must route (the channel is created with exactly these). */
export const soakModels = {
  chat: 'bench-model',
  /** ten words 50 ms apart: a stream holds its connection half a second */
  stream: 'sim-paced-10x50',
  /** forty words 50 ms apart: the client leaves after the first event */
  abandoned: 'sim-paced-40x50',
  embeddings: 'text-embedding-3-small',
  transcription: 'whisper-1',
  vendorErrors: ['sim-error-500', 'sim-error-503'],
  vendorResets: ['sim-broken-stream', 'sim-broken-before-first-event', 'sim-stream-error-event'],
  /** a vendor that answers after 2 s */
  slow: 'sim-delay-2000-bench-model',
} as const;

/** Every model name of `soakModels`. */
export function listSoakModels(): string[] {
  return [
    soakModels.chat,
    soakModels.stream,
    soakModels.abandoned,
    soakModels.embeddings,
    soakModels.transcription,
    ...soakModels.vendorErrors,
    ...soakModels.vendorResets,
    soakModels.slow,
  ];
}

/**
 * The order the workers go through, 40 slots: 6 of them vendor faults (15 %), 4 clients that leave mid-stream, 4
 * uploads. Each worker starts at its own offset so all kinds run at once.
 */
export const soakCycle: readonly SoakRequestKind[] = [
  ...repeat('chat', 10),
  ...repeat('chat-stream', 10),
  ...repeat('embeddings', 6),
  ...repeat('transcription', 4),
  ...repeat('client-abort', 4),
  ...repeat('vendor-error', 2),
  ...repeat('vendor-reset', 2),
  ...repeat('vendor-slow', 2),
];

/** How the answers of one kind went: counts by outcome (`200`, `502`, `aborted`, `connection-error`, ...). */
export type SoakOutcomeCounts = Record<string, number>;

/** Totals of a traffic run. */
export interface SoakTrafficTotals {
  finished: number;
  /** answers that are not what their kind expects (e.g. a 500 for a plain chat, a connection error) */
  unexpected: number;
  byKind: Record<SoakRequestKind, SoakOutcomeCounts>;
  /** a few unexpected answers, for the report */
  unexpectedExamples: string[];
}

/**
 * Runs the traffic until `deadline` (Unix milliseconds) with `concurrency` workers, starting at most
 * `requestsPerSecond` requests a second (a steady load, not a saturating one); `totals` is updated as answers come.
 */
export async function runSoakTraffic(options: {
  baseUrl: string;
  apiKey: string;
  concurrency: number;
  requestsPerSecond: number;
  deadline: number;
  totals: SoakTrafficTotals;
}): Promise<void> {
  const agent = new Agent({ connections: options.concurrency * 2, keepAliveTimeout: 10_000 });
  const wav = createWav(1, { sampleRate: 8_000 });
  const upload = encodeTranscriptionForm(wav);
  const startedAt = Date.now();
  let sequence = 0;
  const worker = async (offset: number): Promise<void> => {
    let slot = offset;
    while (Date.now() < options.deadline) {
      const kind = soakCycle[slot % soakCycle.length] as SoakRequestKind;
      slot += 1;
      sequence += 1;
      // The schedule's start of this request; a worker behind it starts at once (no catching up in bursts beyond it).
      const due = startedAt + (sequence / options.requestsPerSecond) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
      if (Date.now() >= options.deadline) return;
      const outcome = await sendSoakRequest({
        kind,
        sequence,
        baseUrl: options.baseUrl,
        apiKey: options.apiKey,
        agent,
        upload,
      }).catch((error: unknown) => `connection-error ${errorCode(error)}`);
      recordOutcome(options.totals, kind, outcome);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: options.concurrency }, (_, index) =>
        worker(Math.floor((index * soakCycle.length) / options.concurrency)),
      ),
    );
  } finally {
    await agent.close();
  }
}

/** Totals with every kind at zero. */
export function createSoakTrafficTotals(): SoakTrafficTotals {
  const byKind = Object.fromEntries([...new Set(soakCycle)].map((kind) => [kind, {}])) as Record<
    SoakRequestKind,
    SoakOutcomeCounts
  >;
  return { finished: 0, unexpected: 0, byKind, unexpectedExamples: [] };
}

/** The statuses a vendor's fault may reach the client as (always with an OpenAI-shaped error body). */
const vendorFaultStatuses = new Set(['500', '502', '503', '504']);

/** Whether `outcome` is a right answer for `kind`: the vendor's success, or for a vendor fault an OpenAI-shaped 5xx. */
export function isExpectedOutcome(kind: SoakRequestKind, outcome: string): boolean {
  switch (kind) {
    case 'chat':
    case 'chat-stream':
    case 'embeddings':
    case 'transcription':
    case 'vendor-slow':
      return outcome === '200';
    case 'client-abort':
      return outcome === 'aborted';
    case 'vendor-error':
      return vendorFaultStatuses.has(outcome);
    case 'vendor-reset':
      // A reset after the head cannot change the status any more: the stream ends with an error event instead.
      return vendorFaultStatuses.has(outcome) || outcome === '200 cut';
    default: {
      const unknownKind: never = kind;
      throw new Error(`unknown soak request kind ${String(unknownKind)}`);
    }
  }
}

function recordOutcome(totals: SoakTrafficTotals, kind: SoakRequestKind, outcome: string): void {
  totals.finished += 1;
  const counts = totals.byKind[kind];
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  if (isExpectedOutcome(kind, outcome)) return;
  totals.unexpected += 1;
  if (totals.unexpectedExamples.length < 20) totals.unexpectedExamples.push(`${kind}: ${outcome}`);
}

interface SoakRequest {
  kind: SoakRequestKind;
  sequence: number;
  baseUrl: string;
  apiKey: string;
  agent: Agent;
  upload: { body: Buffer; contentType: string };
}

/** Sends one request and returns its outcome: the status (`200`, `502`, ...), `200 cut`, or `aborted`. */
async function sendSoakRequest(soakRequest: SoakRequest): Promise<string> {
  const { kind, sequence } = soakRequest;
  switch (kind) {
    case 'chat':
      return sendJson(soakRequest, '/chat/completions', chatBody(soakModels.chat, false, sequence), false);
    case 'chat-stream':
      return sendJson(soakRequest, '/chat/completions', chatBody(soakModels.stream, true, sequence), true);
    case 'embeddings':
      return sendJson(
        soakRequest,
        '/embeddings',
        { model: soakModels.embeddings, input: [`soak text ${sequence}`, 'a second input'] },
        false,
      );
    case 'transcription':
      return sendBody(soakRequest, '/audio/transcriptions', soakRequest.upload, false);
    case 'client-abort':
      return sendAndLeave(soakRequest);
    case 'vendor-error':
      return sendJson(
        soakRequest,
        '/chat/completions',
        chatBody(pick(soakModels.vendorErrors, sequence), sequence % 2 === 0, sequence),
        sequence % 2 === 0,
      );
    case 'vendor-reset':
      return sendJson(
        soakRequest,
        '/chat/completions',
        chatBody(pick(soakModels.vendorResets, sequence), sequence % 3 !== 0, sequence),
        sequence % 3 !== 0,
      );
    case 'vendor-slow':
      return sendJson(soakRequest, '/chat/completions', chatBody(soakModels.slow, false, sequence), false);
    default: {
      const unknownKind: never = kind;
      throw new Error(`unknown soak request kind ${String(unknownKind)}`);
    }
  }
}

function chatBody(model: string, stream: boolean, sequence: number): Record<string, unknown> {
  return {
    model,
    stream,
    max_tokens: 64,
    messages: [{ role: 'user', content: `Say a few words about request ${sequence}.` }],
  };
}

function sendJson(
  soakRequest: SoakRequest,
  path: string,
  body: Record<string, unknown>,
  stream: boolean,
): Promise<string> {
  return sendBody(
    soakRequest,
    path,
    { body: Buffer.from(JSON.stringify(body)), contentType: 'application/json' },
    stream,
  );
}

async function sendBody(
  soakRequest: SoakRequest,
  path: string,
  payload: { body: Buffer; contentType: string },
  stream: boolean,
): Promise<string> {
  const response = await request(`${soakRequest.baseUrl}${path}`, {
    method: 'POST',
    dispatcher: soakRequest.agent,
    headers: { authorization: `Bearer ${soakRequest.apiKey}`, 'content-type': payload.contentType },
    body: payload.body,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const text = await response.body.text().catch(() => undefined);
  if (text === undefined) return `${response.statusCode} cut`;
  if (response.statusCode !== 200)
    return isOpenAiError(text) ? String(response.statusCode) : `${response.statusCode} not OpenAI-shaped`;
  if (stream && !text.trimEnd().endsWith('data: [DONE]')) return '200 cut';
  return '200';
}

/** A streamed chat whose client hangs up after the first event. */
async function sendAndLeave(soakRequest: SoakRequest): Promise<string> {
  const controller = new AbortController();
  const response = await request(`${soakRequest.baseUrl}/chat/completions`, {
    method: 'POST',
    dispatcher: soakRequest.agent,
    signal: controller.signal,
    headers: { authorization: `Bearer ${soakRequest.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody(soakModels.abandoned, true, soakRequest.sequence)),
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    return String(response.statusCode);
  }
  // The abort below may make the body emit 'error' after the loop let go of it.
  response.body.on('error', () => undefined);
  try {
    for await (const chunk of response.body) {
      if (String(chunk).includes('data: ')) break;
    }
  } catch {
    return 'cut before the first event';
  }
  // Breaking out of the loop destroyed the body; aborting makes sure the connection is let go of too.
  controller.abort();
  return 'aborted';
}

/** A multipart/form-data transcription request (model and a WAV file), encoded once and sent many times. */
function encodeTranscriptionForm(wav: Buffer): { body: Buffer; contentType: string } {
  const boundary = 'soak-boundary-7f3a9c';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${soakModels.transcription}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="response_format"\r\n\r\njson\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="speech.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, wav, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const openAiErrorSchema = z.object({ error: z.object({ message: z.string(), type: z.string() }) });

/** Whether `text` is OpenAI's error shape, `{"error": {"message", "type", ...}}`. */
function isOpenAiError(text: string): boolean {
  try {
    return openAiErrorSchema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

function pick<Value>(values: readonly Value[], sequence: number): Value {
  return values[sequence % values.length] as Value;
}

function repeat(kind: SoakRequestKind, count: number): SoakRequestKind[] {
  return Array.from({ length: count }, () => kind);
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? error.code : error.name;
  return String(error);
}
