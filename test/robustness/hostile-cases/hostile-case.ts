// What one generated hostile exchange is, and the routes and valid bodies the generators start from.
import type { RawWrite } from '../raw-http-exchange.js';

/** What one response of a case must be; every response is also checked for shape and leaks. */
export type ResponseExpectation =
  /** a 4xx in OpenAI's error shape */
  | 'client-error'
  /** a 2xx (a valid request) */
  | 'success'
  /** anything but a 5xx: a mangled request the gateway may accept or refuse */
  | 'no-server-error';

/** One exchange on one connection: bytes to send, and what each request sent must get. */
export interface HostileCase {
  /** the family and variant, enough to reproduce the bytes by hand */
  name: string;
  writes: RawWrite[];
  /** one per request in `writes`, in order */
  expectations: ResponseExpectation[];
  /** indexes of the requests that are HEAD requests (their responses have no body) */
  headResponses?: ReadonlySet<number>;
  /**
   * false when the client's own framing leaves the server waiting for bytes that never come (a body shorter than
   * its Content-Length, a missing last chunk): nothing may follow on that connection
   */
  framingComplete: boolean;
}

/** Secrets and accounts of the gateway under test, which the generated requests use. */
export interface HostileContext {
  /** a key of a funded user */
  apiKey: string;
  consoleEmail: string;
  consolePassword: string;
}

/** A route that takes JSON, with a body it accepts and the fields the official API description defines for it. */
export interface JsonRoute {
  path: string;
  /** `key` for /v1 (Bearer API key), `none` for the sign-in route */
  authentication: 'key' | 'none';
  validBody: Record<string, unknown>;
  /** field paths a generator may set to a wrong value (`a.b.0.c` reaches into objects and arrays) */
  fields: string[];
}

/** The JSON routes: every /v1 JSON endpoint and the console's sign-in. */
export function createJsonRoutes(context: HostileContext): JsonRoute[] {
  return [
    {
      path: '/v1/chat/completions',
      authentication: 'key',
      validBody: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 },
      fields: [
        'model',
        'messages',
        'messages.0',
        'messages.0.role',
        'messages.0.content',
        'messages.0.name',
        'temperature',
        'top_p',
        'n',
        'max_tokens',
        'max_completion_tokens',
        'stop',
        'stream',
        'stream_options',
        'stream_options.include_usage',
        'tools',
        'tool_choice',
        'parallel_tool_calls',
        'response_format',
        'presence_penalty',
        'frequency_penalty',
        'seed',
        'logprobs',
        'top_logprobs',
        'logit_bias',
        'user',
        'reasoning_effort',
        'modalities',
        'audio',
        'service_tier',
        'store',
        'metadata',
        'prediction',
        'web_search_options',
        'verbosity',
        'prompt_cache_key',
      ],
    },
    {
      path: '/v1/completions',
      authentication: 'key',
      validBody: { model: 'gpt-3.5-turbo-instruct', prompt: 'hello', max_tokens: 5 },
      fields: [
        'model',
        'prompt',
        'max_tokens',
        'temperature',
        'top_p',
        'n',
        'stream',
        'stream_options',
        'logprobs',
        'echo',
        'stop',
        'presence_penalty',
        'frequency_penalty',
        'best_of',
        'logit_bias',
        'user',
        'suffix',
        'seed',
      ],
    },
    {
      path: '/v1/embeddings',
      authentication: 'key',
      validBody: { model: 'text-embedding-3-small', input: 'hello' },
      fields: ['model', 'input', 'encoding_format', 'dimensions', 'user'],
    },
    {
      path: '/v1/audio/speech',
      authentication: 'key',
      validBody: { model: 'gpt-4o-mini-tts', input: 'hello', voice: 'alloy', response_format: 'wav' },
      fields: ['model', 'input', 'voice', 'voice.id', 'response_format', 'speed', 'instructions', 'stream_format'],
    },
    {
      path: '/v1/moderations',
      authentication: 'key',
      validBody: { model: 'omni-moderation-latest', input: [{ type: 'text', text: 'hello' }] },
      fields: ['model', 'input', 'input.0', 'input.0.type', 'input.0.text', 'input.0.image_url'],
    },
    {
      path: '/v1/images/generations',
      authentication: 'key',
      validBody: { model: 'dall-e-2', prompt: 'a cat', size: '256x256' },
      fields: [
        'model',
        'prompt',
        'n',
        'size',
        'quality',
        'style',
        'response_format',
        'user',
        'background',
        'moderation',
        'output_format',
        'output_compression',
        'stream',
        'partial_images',
      ],
    },
    {
      path: '/api/auth/login',
      authentication: 'none',
      validBody: { email: context.consoleEmail, password: 'not the password' },
      fields: ['email', 'password'],
    },
  ];
}

/** Placeholder a generator puts where a raw JSON literal (not expressible as a JS value) must go. */
export const rawLiteralMarker = '\u0000raw\u0000';

/** Serializes a body, replacing `"<marker>N"` strings by the N-th raw literal (e.g. `1e999`, `-0`). */
export function encodeJsonWithLiterals(body: unknown, literals: readonly string[]): string {
  return JSON.stringify(body).replace(
    /"\\u0000raw\\u0000(\d+)"/g,
    (_match, index: string) => literals[Number(index)] ?? 'null',
  );
}

/** The bytes of one request; Content-Length is added for a body unless headers frame it themselves. */
export function encodeRequest(options: {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  version?: string;
}): Buffer {
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = { host: '127.0.0.1', ...options.headers };
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  if (body !== undefined && !names.includes('content-length') && !names.includes('transfer-encoding'))
    headers['content-length'] = String(body.length);
  const head = `${options.method} ${options.path} ${options.version ?? 'HTTP/1.1'}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return body === undefined ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** The headers of an authenticated JSON request to `route`. */
export function jsonHeaders(route: Pick<JsonRoute, 'authentication'>, context: HostileContext): Record<string, string> {
  return route.authentication === 'key'
    ? { authorization: `Bearer ${context.apiKey}`, 'content-type': 'application/json' }
    : { 'content-type': 'application/json' };
}

/** A valid GET of the key's model list: the follow-up that proves a connection is still in step. */
export function encodeModelListRequest(context: HostileContext): Buffer {
  return encodeRequest({ method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${context.apiKey}` } });
}
