// Several requests written at once on one connection (HTTP/1.1 pipelining), valid and invalid mixed: each must
// be answered in order, until one answer announces that the connection closes.
import fc from 'fast-check';
import {
  encodeModelListRequest,
  encodeRequest,
  type HostileCase,
  type HostileContext,
  type ResponseExpectation,
} from './hostile-case.js';

/** One pipelined request: its bytes, what it must get, and whether it is a HEAD request. */
interface PipelinedRequest {
  label: string;
  bytes: Buffer;
  expectation: ResponseExpectation;
  head?: boolean;
}

function pipelinedRequests(context: HostileContext): PipelinedRequest[] {
  const auth = { authorization: `Bearer ${context.apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const chat = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'pipelined' }], max_tokens: 3 });
  return [
    { label: 'GET models', bytes: encodeModelListRequest(context), expectation: 'success' },
    {
      label: 'HEAD models',
      bytes: encodeRequest({ method: 'HEAD', path: '/v1/models', headers: auth }),
      expectation: 'success',
      head: true,
    },
    {
      label: 'chat',
      bytes: encodeRequest({ method: 'POST', path: '/v1/chat/completions', headers: json, body: chat }),
      expectation: 'success',
    },
    {
      label: 'streamed chat',
      bytes: encodeRequest({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: json,
        body: chat.replace('{', '{"stream":true,'),
      }),
      expectation: 'success',
    },
    {
      label: 'broken json',
      bytes: encodeRequest({ method: 'POST', path: '/v1/chat/completions', headers: json, body: '{"model":' }),
      expectation: 'client-error',
    },
    {
      label: 'invalid field',
      bytes: encodeRequest({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: json,
        body: chat.replace('"max_tokens":3', '"max_tokens":-3'),
      }),
      expectation: 'client-error',
    },
    {
      label: 'unknown GET',
      bytes: encodeRequest({ method: 'GET', path: '/v1/nothing-here', headers: auth }),
      expectation: 'client-error',
    },
    {
      label: 'unknown POST',
      bytes: encodeRequest({ method: 'POST', path: '/v1/nothing-here', headers: json, body: chat }),
      expectation: 'client-error',
    },
    {
      label: 'DELETE models',
      bytes: encodeRequest({ method: 'DELETE', path: '/v1/models', headers: auth }),
      expectation: 'client-error',
    },
    {
      label: 'no key',
      bytes: encodeRequest({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json' },
        body: chat,
      }),
      expectation: 'client-error',
    },
    { label: 'bad request line', bytes: Buffer.from('GARBAGE\r\n\r\n'), expectation: 'client-error' },
    {
      label: 'bad percent-encoding',
      bytes: encodeRequest({ method: 'GET', path: '/v1/models/%E0%A4%A', headers: auth }),
      expectation: 'client-error',
    },
  ];
}

/** Two to five requests in one write, or one byte at a time. */
export function pipelinedCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  const requests = pipelinedRequests(context);
  return fc
    .tuple(fc.array(fc.constantFrom(...requests), { minLength: 2, maxLength: 5 }), fc.boolean())
    .map(([sequence, together]) => {
      const bytes = Buffer.concat(sequence.map((request) => request.bytes));
      const headResponses = new Set(sequence.flatMap((request, index) => (request.head ? [index] : [])));
      return {
        name: `pipelined ${together ? 'in one write' : 'in two writes'}: ${sequence.map((request) => request.label).join(', ')}`,
        writes: together
          ? [bytes]
          : [
              bytes.subarray(0, Math.floor(bytes.length / 2)),
              { pauseMs: 5 },
              bytes.subarray(Math.floor(bytes.length / 2)),
            ],
        expectations: sequence.map((request) => request.expectation),
        headResponses,
        framingComplete: true,
      };
    });
}
