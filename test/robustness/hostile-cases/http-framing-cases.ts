// Hostile HTTP itself: invalid request lines, header anomalies (huge, many, malformed, conflicting lengths),
// path anomalies (bad percent-encoding, dot segments, overlong paths), broken chunked framing, oversized bodies,
// and slow or stalled clients.
import fc from 'fast-check';
import type { RawWrite } from '../raw-http-exchange.js';
import { encodeRequest, type HostileCase, type HostileContext, type ResponseExpectation } from './hostile-case.js';

/** Limits the gateway under test was started with, so oversized cases are just over them. */
export interface HostileLimits {
  bodyLimitBytes: number;
  uploadLimitBytes: number;
}

const validChatBody = JSON.stringify({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'hello' }],
  max_tokens: 5,
});

function singleCase(
  name: string,
  writes: RawWrite[],
  expectation: ResponseExpectation,
  framingComplete = true,
): HostileCase {
  return { name, writes, expectations: [expectation], framingComplete };
}

function authorization(context: HostileContext): Record<string, string> {
  return { authorization: `Bearer ${context.apiKey}` };
}

/** Request lines Node's parser refuses or the router does not know; never a 5xx. */
export function requestLineCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  const method = fc.constantFrom(
    'GET',
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'OPTIONS',
    'TRACE',
    'PROPFIND',
    'M-SEARCH',
    'get',
    'GETT',
    'G@T',
    'PRI',
    '',
    ' GET',
    'GET\t',
    '\u0016\u0003\u0001',
  );
  const path = fc.constantFrom(
    '/v1/models',
    '/v1/chat/completions',
    '/api/auth/login',
    '*',
    '',
    'v1/models',
    'http://127.0.0.1/v1/models',
    '/v1/models HTTP/1.1',
    '/\u0000',
    '/v1/mo dels',
  );
  const version = fc.constantFrom(
    'HTTP/1.1',
    'HTTP/1.0',
    'HTTP/1.2',
    'HTTP/2.0',
    'HTTP/0.9',
    'HTTP/1',
    'http/1.1',
    'HTTP/11.1',
    '',
    'HTTP/1.1 extra',
    'HTTPS/1.1',
  );
  const lineEnd = fc.constantFrom('\r\n', '\n', '\r');
  return fc.oneof(
    fc.tuple(method, path, version, lineEnd).map(([verb, target, protocol, end]) => {
      const head = `${verb} ${target}${protocol === '' ? '' : ` ${protocol}`}${end}host: 127.0.0.1${end}authorization: Bearer ${context.apiKey}${end}${end}`;
      return singleCase(
        `request line ${JSON.stringify(`${verb} ${target} ${protocol}`)} ends ${JSON.stringify(end)}`,
        [Buffer.from(head, 'latin1')],
        'no-server-error',
      );
    }),
    fc
      .uint8Array({ minLength: 1, maxLength: 300 })
      .map((bytes) =>
        singleCase(
          `random bytes as a request (${bytes.length})`,
          [Buffer.from(bytes), Buffer.from('\r\n\r\n')],
          'no-server-error',
        ),
      ),
    fc
      .constantFrom(
        'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
        '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003',
        'GET /v1/models HTTP/1.1\r\n\r\n',
        '\r\n\r\nGET /v1/models HTTP/1.1\r\nhost: x\r\n\r\n',
        'CONNECT 127.0.0.1:443 HTTP/1.1\r\nhost: 127.0.0.1:443\r\n\r\n',
      )
      .map((text) =>
        singleCase(`raw ${JSON.stringify(text.slice(0, 30))}`, [Buffer.from(text, 'latin1')], 'no-server-error'),
      ),
  );
}

/** Header anomalies: oversized and numerous headers, invalid names and values, conflicting or absurd lengths. */
export function headerCase(context: HostileContext, limits: HostileLimits): fc.Arbitrary<HostileCase> {
  const head = (lines: string[], body = ''): Buffer =>
    Buffer.from(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.map((line) => `${line}\r\n`).join('')}\r\n${body}`,
      'latin1',
    );
  const auth = `authorization: Bearer ${context.apiKey}`;
  const json = 'content-type: application/json';
  return fc.oneof(
    fc
      .integer({ min: 17 * 1024, max: 96 * 1024 })
      .map((length) =>
        singleCase(
          `header of ${length} bytes`,
          [head([auth, json, `x-big: ${'a'.repeat(length)}`], '')],
          'client-error',
          false,
        ),
      ),
    fc
      .integer({ min: 100, max: 3000 })
      .map((count) =>
        singleCase(
          `${count} headers`,
          [
            head(
              [
                auth,
                json,
                ...Array.from({ length: count }, (_, index) => `x-h${index}: v`),
                `content-length: ${validChatBody.length}`,
              ],
              validChatBody,
            ),
          ],
          'no-server-error',
        ),
      ),
    fc
      .constantFrom(
        'x-bad name: v',
        'x-bad\u0000: v',
        'x-bad: v\u0000',
        'x-bad: \u007f',
        ': empty-name',
        'no-colon-here',
        ' x-leading-space: v',
        'x-fold: a\r\n folded',
        'x-bad\u00ff: v',
        'x-bad: \u00ff',
      )
      .map((line) =>
        singleCase(
          `header ${JSON.stringify(line)}`,
          [head([auth, json, line, `content-length: ${validChatBody.length}`], validChatBody)],
          'no-server-error',
        ),
      ),
    fc
      .constantFrom(
        ['content-length: 5', 'content-length: 6'],
        ['content-length: 5', 'content-length: 5'],
        ['content-length: 5, 5'],
        ['content-length: -1'],
        ['content-length: abc'],
        ['content-length: +5'],
        ['content-length: 0x10'],
        ['content-length: 99999999999999999999999'],
        ['content-length: 5', 'transfer-encoding: chunked'],
        ['transfer-encoding: gzip'],
        ['transfer-encoding: chunked, gzip'],
        ['transfer-encoding: identity'],
        ['transfer-encoding: xchunked'],
        ['transfer-encoding: chunked', 'transfer-encoding: chunked'],
      )
      .map((lines) =>
        singleCase(
          `framing headers ${lines.join(' | ')}`,
          [head([auth, json, ...lines], '{"a":')],
          'no-server-error',
          false,
        ),
      ),
    fc
      .constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'bearer KEY',
        'Basic dXNlcjpwYXNz',
        `Bearer ${'k'.repeat(8000)}`,
        'Bearer sk-\u00ff\u00fe',
        `Bearer ${context.apiKey}x`,
        `Bearer  ${context.apiKey}`,
        'Bearer sk-gw-0000000000000000',
      )
      .map((value) => {
        const line = value === '' ? 'authorization:' : `authorization: ${value.replace('KEY', context.apiKey)}`;
        return singleCase(
          `authorization ${JSON.stringify(value.slice(0, 30))}`,
          [head([line, json, `content-length: ${validChatBody.length}`], validChatBody)],
          'no-server-error',
        );
      }),
    fc
      .constantFrom(
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/jsonx',
        'json',
        'application/json, text/plain',
        '*/*',
        'application/problem+json',
        'APPLICATION/JSON',
        'text/json',
        '',
      )
      .map((type) =>
        singleCase(
          `content-type ${JSON.stringify(type)}`,
          [head([auth, `content-type: ${type}`, `content-length: ${validChatBody.length}`], validChatBody)],
          'no-server-error',
        ),
      ),
    fc
      .constantFrom(
        ['host: a', 'host: b'],
        ['expect: 100-continue'],
        ['expect: weird'],
        ['connection: upgrade', 'upgrade: websocket'],
        ['connection: close'],
        ['x-forwarded-for: 1.2.3.4'],
        ['accept-encoding: gzip, br'],
      )
      .map((lines) =>
        singleCase(
          `headers ${lines.join(' | ')}`,
          [head([auth, json, ...lines, `content-length: ${validChatBody.length}`], validChatBody)],
          'no-server-error',
        ),
      ),
    fc
      .integer({ min: limits.bodyLimitBytes + 1, max: limits.bodyLimitBytes * 4 })
      .map((length) =>
        singleCase(
          `declared body of ${length} bytes`,
          [head([auth, json, `content-length: ${length}`], '{"model":')],
          'client-error',
          false,
        ),
      ),
    fc
      .integer({ min: limits.bodyLimitBytes + 1, max: limits.bodyLimitBytes + 65_536 })
      .map((length) =>
        singleCase(
          `sent body of ${length} bytes`,
          [head([auth, json, `content-length: ${length}`], `{"model":"${'m'.repeat(length - 12)}"}`)],
          'client-error',
          false,
        ),
      ),
  );
}

/** Path anomalies on GET and POST routes. */
export function pathCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  const paths = fc.oneof(
    fc.constantFrom(
      '/v1/models/%',
      '/v1/models/%G1',
      '/v1/models/%E0%A4%A',
      '/v1/models/%C0%AF',
      '/v1/models/%00',
      '/v1/mo%zzdels',
      '//v1/models',
      '/v1//models',
      '/v1/./models',
      '/v1/../v1/models',
      '/v1/models/..%2f..%2fetc%2fpasswd',
      '/v1/models/../../etc/passwd',
      '/V1/MODELS',
      '/v1/models/',
      '/v1/models?',
      '/v1/models?%zz=%zz',
      '/v1/models#fragment',
      '/v1/models;param',
      '/v1/models/gpt-4o%2F..',
      '/v1/models/%2e%2e',
      '/api/users/%zz/balance',
      '/api/keys/%',
      '/api/../v1/models',
      '/healthz/../v1/models',
      '/%2e%2e/v1/models',
      '/v1/models\\..\\x',
    ),
    fc.integer({ min: 101, max: 12_000 }).map((length) => `/v1/models/${'a'.repeat(length)}`),
    fc.integer({ min: 101, max: 4_000 }).map((length) => `/api/users/${'u'.repeat(length)}/balance`),
    fc.integer({ min: 1, max: 16_000 }).map((length) => `/v1/models?${'q'.repeat(length)}=1`),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((text) => `/v1/models/${encodeURIComponent(text)}`),
    fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).map((text) => `/v1/${text.replace(/[\s]/g, '')}`),
  );
  return fc.tuple(paths, fc.constantFrom('GET', 'POST', 'HEAD')).map(([path, method]) => {
    const headers =
      method === 'POST' ? { ...authorization(context), 'content-type': 'application/json' } : authorization(context);
    const request = encodeRequest({ method, path, headers, ...(method === 'POST' ? { body: validChatBody } : {}) });
    return {
      name: `${method} path ${JSON.stringify(path.slice(0, 60))}`,
      writes: [request],
      expectations: ['no-server-error'],
      framingComplete: true,
      ...(method === 'HEAD' ? { headResponses: new Set([0]) } : {}),
    };
  });
}

/** Chunked bodies: valid framing of a valid body (answered), and every way the framing can break (a 4xx). */
export function chunkedCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${context.apiKey}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
  const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const valid = fc.integer({ min: 1, max: 20 }).map((pieces) => {
    const size = Math.ceil(validChatBody.length / pieces);
    const chunks = Array.from({ length: pieces }, (_, index) =>
      validChatBody.slice(index * size, (index + 1) * size),
    ).filter((text) => text.length > 0);
    return singleCase(
      `valid chunked body in ${chunks.length} chunks`,
      [head, ...chunks.map(chunk), '0\r\n\r\n'],
      'success',
    );
  });
  const broken = fc
    .constantFrom(
      `zz\r\n${validChatBody}\r\n0\r\n\r\n`,
      `-5\r\n${validChatBody}\r\n0\r\n\r\n`,
      `${validChatBody.length.toString(16)}\r\n${validChatBody}0\r\n\r\n`,
      `${validChatBody.length.toString(16)}\n${validChatBody}\n0\n\n`,
      `ffffffffffffffffff\r\n${validChatBody}\r\n0\r\n\r\n`,
      `${validChatBody.length.toString(16)};${'e'.repeat(20_000)}\r\n${validChatBody}\r\n0\r\n\r\n`,
      `${validChatBody.length.toString(16)} \r\n${validChatBody}\r\n0\r\n\r\n`,
      `0x10\r\n${validChatBody}\r\n0\r\n\r\n`,
      `${(validChatBody.length - 3).toString(16)}\r\n${validChatBody}\r\n0\r\n\r\n`,
      `${validChatBody.length.toString(16)}\r\n${validChatBody}\r\n0\r\nx-trailer\r\n\r\n`,
    )
    .map((body) =>
      singleCase(`chunked framing ${JSON.stringify(body.slice(0, 24))}`, [head + body], 'client-error', false),
    );
  const unfinished = fc
    .constantFrom(
      `${(validChatBody.length + 50).toString(16)}\r\n${validChatBody}\r\n`,
      `${validChatBody.length.toString(16)}\r\n${validChatBody}\r\n`,
    )
    .map((body) =>
      // The server waits for the rest until its request timeout, then answers 408 and closes.
      singleCase(
        `chunked body never finished ${JSON.stringify(body.slice(0, 8))}`,
        [head + body],
        'client-error',
        false,
      ),
    );
  return fc.oneof(
    { arbitrary: valid, weight: 2 },
    { arbitrary: broken, weight: 6 },
    { arbitrary: unfinished, weight: 1 },
  );
}

/** Clients that send slowly (answered normally) or stop sending (408 once the timeouts pass). */
export function slowClientCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  const request = encodeRequest({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { ...authorization(context), 'content-type': 'application/json' },
    body: validChatBody,
  });
  const slow = fc.tuple(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 1, max: 60 })).map(([pieces, pauseMs]) => {
    const size = Math.ceil(request.length / pieces);
    const writes: RawWrite[] = [];
    for (let index = 0; index < pieces; index++)
      writes.push(request.subarray(index * size, (index + 1) * size), { pauseMs });
    return singleCase(`request in ${pieces} pieces, ${pauseMs} ms apart`, writes, 'success');
  });
  const stalled = fc.constantFrom('headers', 'body').map((part) => {
    const cut = part === 'headers' ? request.indexOf('\r\n') + 2 : request.length - 5;
    return singleCase(`stalls in the ${part}`, [request.subarray(0, cut)], 'client-error', false);
  });
  return fc.oneof({ arbitrary: slow, weight: 8 }, { arbitrary: stalled, weight: 1 });
}
