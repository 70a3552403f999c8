// What must hold for every answer the gateway gives to anything a client sends (issue 8): no 5xx for a client's
// mistake, OpenAI's error shape on every error, nothing leaked, and answers that keep a connection in step.
import type { HostileCase, ResponseExpectation } from './hostile-cases/hostile-case.js';
import type { RawHttpExchange, RawHttpResponse } from './raw-http-exchange.js';

/** Patterns of internals that must never reach a client: stack frames, source paths, Fastify's own error body. */
const internalPatterns = [
  /\n\s+at \S/,
  /\bat [\w.<>]+ \(.*:\d+:\d+\)/,
  /node_modules/,
  /file:\/\//,
  /\/work\//,
  /\.ts:\d+/,
  /"statusCode"\s*:/,
  /FST_[A-Z_]+/,
  /HPE_[A-Z_]+/,
];

/** Every problem with one case's exchange, as one line each (empty when all is well). */
export function findExchangeProblems(
  testCase: HostileCase,
  exchange: RawHttpExchange,
  secrets: readonly string[],
): string[] {
  const problems: string[] = [];
  if (exchange.unparsable !== undefined)
    problems.push(`the server sent bytes that are not HTTP: ${exchange.unparsable}`);
  const { responses } = exchange;
  if (responses.length === 0) {
    problems.push(exchange.closedByServer ? 'the server closed the connection without an answer' : 'no answer in time');
    return problems;
  }
  responses.forEach((response, index) => {
    const expectation = testCase.expectations[index] ?? 'no-server-error';
    problems.push(
      ...findResponseProblems(response, expectation, testCase.headResponses?.has(index) === true, secrets).map(
        (problem) => `answer ${index + 1} (${response.status}): ${problem}`,
      ),
    );
  });
  const last = responses[responses.length - 1] as RawHttpResponse;
  if (responses.length < testCase.expectations.length && !announcesClose(last)) {
    problems.push(
      `${responses.length} of ${testCase.expectations.length} requests answered, and the last answer did not announce Connection: close`,
    );
  }
  return problems;
}

/** True when a response says the server closes the connection after it. */
export function announcesClose(response: RawHttpResponse): boolean {
  return /\bclose\b/i.test(response.headers.connection ?? '');
}

function findResponseProblems(
  response: RawHttpResponse,
  expectation: ResponseExpectation,
  isHead: boolean,
  secrets: readonly string[],
): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push('a 5xx for a client request');
  else if (expectation === 'client-error' && (response.status < 400 || response.status >= 500))
    problems.push('expected a 4xx');
  else if (expectation === 'success' && (response.status < 200 || response.status >= 300))
    problems.push(`expected a 2xx: ${response.body.slice(0, 200)}`);
  if (response.status >= 400) problems.push(...findErrorShapeProblems(response, isHead));
  const visible = `${JSON.stringify(response.headers)}\n${response.body}`;
  for (const secret of secrets) if (visible.includes(secret)) problems.push(`leaks ${JSON.stringify(secret)}`);
  for (const pattern of internalPatterns)
    if (pattern.test(visible)) problems.push(`shows internals (${pattern}): ${response.body.slice(0, 200)}`);
  return problems;
}

function findErrorShapeProblems(response: RawHttpResponse, isHead: boolean): string[] {
  if (!(response.headers['content-type'] ?? '').startsWith('application/json'))
    return [`error with content-type ${response.headers['content-type']}`];
  if (isHead) return [];
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [`error body is not JSON: ${response.body.slice(0, 200)}`];
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const shaped =
    typeof body === 'object' &&
    body !== null &&
    Object.keys(body).length === 1 &&
    typeof error === 'object' &&
    error !== null &&
    typeof error.message === 'string' &&
    error.message.length > 0 &&
    typeof error.type === 'string' &&
    (typeof error.param === 'string' || error.param === null) &&
    (typeof error.code === 'string' || error.code === null);
  return shaped ? [] : [`error not in OpenAI's shape: ${response.body.slice(0, 200)}`];
}
