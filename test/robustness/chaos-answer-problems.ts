// What is wrong with one client answer the gateway gave behind the chaos vendor: each problem names the invariant
// it breaks, so a failing run reports which invariant fails for which scenario.
import { chaosAnswerText } from '../simulators/chaos-vendor-wires.js';
import { errorStatusesOf, expectedOutcomeOf, type ChaosScenario } from '../simulators/chaos-vendor-scenarios.js';

/** A client endpoint the mixed run calls. */
export type ChaosEndpoint = 'chat' | 'completions' | 'embeddings' | 'images' | 'responses' | 'messages';

/** The invariants of a client answer. */
export type ChaosInvariant =
  | 'no 3xx'
  | 'error is OpenAI-shaped (Anthropic-shaped on /v1/messages)'
  | 'error status fits the fault'
  | 'success is well-formed'
  | 'vendor success reaches the client'
  | 'a fault before the first byte fails over'
  | 'a stream never ends complete after an error'
  | 'a broken stream never ends complete'
  | 'no channel secret'
  | 'answered within the timeouts';

/** One answer as the client saw it. */
export interface ChaosAnswer {
  endpoint: ChaosEndpoint;
  protocol: string;
  scenario: ChaosScenario;
  stream: boolean;
  /** true when a well-behaved channel stands behind the misbehaving one, so a fault before the first byte must fail over */
  failover: boolean;
  status: number;
  contentType: string;
  text: string;
  elapsedMs: number;
  /** set when the request itself failed (connection reset by the gateway, client timeout) */
  transportError?: string;
}

/** One broken invariant. */
export interface ChaosProblem {
  invariant: ChaosInvariant;
  detail: string;
}

/** The invariants one answer breaks (none for a good one). */
export function findChaosAnswerProblems(
  answer: ChaosAnswer,
  options: { secrets: readonly string[]; maximumElapsedMs: number },
): ChaosProblem[] {
  const problems: ChaosProblem[] = [];
  const add = (invariant: ChaosInvariant, detail: string): void => {
    problems.push({ invariant, detail });
  };
  if (answer.elapsedMs > options.maximumElapsedMs) add('answered within the timeouts', `${answer.elapsedMs} ms`);
  if (answer.transportError !== undefined) {
    add('error is OpenAI-shaped (Anthropic-shaped on /v1/messages)', `no HTTP answer: ${answer.transportError}`);
    return problems;
  }
  for (const secret of options.secrets)
    if (answer.text.includes(secret)) add('no channel secret', `contains ${secret.slice(0, 6)}...`);
  if (answer.status >= 300 && answer.status < 400) {
    add('no 3xx', `status ${answer.status}`);
    return problems;
  }
  const expected = answer.failover ? 'success' : expectedOutcomeOf(answer.scenario, answer.stream);
  if (answer.status !== 200) {
    const shapeProblem = errorShapeProblem(answer);
    if (shapeProblem) add('error is OpenAI-shaped (Anthropic-shaped on /v1/messages)', shapeProblem);
    if (answer.failover)
      add('a fault before the first byte fails over', `status ${answer.status}: ${answer.text.slice(0, 160)}`);
    else if (expected === 'success')
      add('vendor success reaches the client', `status ${answer.status}: ${answer.text.slice(0, 160)}`);
    else if (!errorStatusesOf(answer.scenario).includes(openAiStatusOf(answer)))
      add('error status fits the fault', `status ${answer.status}: ${answer.text.slice(0, 160)}`);
    return problems;
  }
  if (answer.stream) {
    problems.push(...streamProblems(answer, expected));
    return problems;
  }
  const wholeProblem = wholeAnswerProblem(answer);
  if (wholeProblem) add('success is well-formed', wholeProblem);
  else if (expected === 'vendor-fault')
    add('success is well-formed', `a 200 for a vendor fault: ${answer.text.slice(0, 160)}`);
  return problems;
}

/** The status in OpenAI's terms: Anthropic's Messages protocol answers a temporary unavailability (503) with 529 `overloaded_error`. */
function openAiStatusOf(answer: ChaosAnswer): number {
  return answer.endpoint === 'messages' && answer.status === 529 && answer.text.includes('"overloaded_error"')
    ? 503
    : answer.status;
}

function errorShapeProblem(answer: ChaosAnswer): string | undefined {
  const body = parseObject(answer.text);
  if (!body) return `not a JSON object: ${answer.text.slice(0, 120)}`;
  const error = body.error;
  if (!isObject(error) || typeof error.message !== 'string' || typeof error.type !== 'string')
    return `no error.message/type: ${answer.text.slice(0, 120)}`;
  if (answer.endpoint === 'messages')
    return body.type === 'error' || 'code' in error ? undefined : `neither shape: ${answer.text.slice(0, 120)}`;
  return 'code' in error ? undefined : `no error.code: ${answer.text.slice(0, 120)}`;
}

/** Why a non-streamed 200 is not the endpoint's shape, or undefined when it is. */
function wholeAnswerProblem(answer: ChaosAnswer): string | undefined {
  const body = parseObject(answer.text);
  if (!body) return `not a JSON object: ${answer.text.slice(0, 120)}`;
  if ('usage' in body && body.usage !== null && body.usage !== undefined && !isObject(body.usage))
    return 'usage is not an object';
  switch (answer.endpoint) {
    case 'chat':
      return Array.isArray(body.choices) && body.choices.length > 0 && answer.text.includes(chaosAnswerText)
        ? undefined
        : 'no choices with the answer';
    case 'completions':
      return Array.isArray(body.choices) && body.choices.length > 0 && answer.text.includes(chaosAnswerText)
        ? undefined
        : 'no choices with the answer';
    case 'embeddings': {
      // Asked without `encoding_format`: each vector is an array of numbers.
      const vectors = Array.isArray(body.data)
        ? body.data.map((item: unknown) => (isObject(item) ? item.embedding : undefined))
        : [];
      const wellFormed =
        vectors.length > 0 &&
        vectors.every((vector) => Array.isArray(vector) && vector.every((value) => typeof value === 'number'));
      return wellFormed ? undefined : 'no data of number vectors';
    }
    case 'images':
      return Array.isArray(body.data) && body.data.length > 0 ? undefined : 'no data';
    case 'responses':
      return body.object === 'response' && Array.isArray(body.output) && answer.text.includes(chaosAnswerText)
        ? undefined
        : 'not a Response with the answer';
    case 'messages':
      return body.type === 'message' && Array.isArray(body.content) && answer.text.includes(chaosAnswerText)
        ? undefined
        : 'not a Message with the answer';
    default: {
      const unknown: never = answer.endpoint;
      return `unknown endpoint ${String(unknown)}`;
    }
  }
}

/** One SSE event as a client parses it. */
interface ClientEvent {
  event: string | undefined;
  data: string;
}

function streamProblems(answer: ChaosAnswer, expected: 'success' | 'vendor-fault'): ChaosProblem[] {
  const problems: ChaosProblem[] = [];
  if (!answer.contentType.startsWith('text/event-stream')) {
    return [
      {
        invariant: 'success is well-formed',
        detail: `a streamed request answered 200 ${answer.contentType}: ${answer.text.slice(0, 120)}`,
      },
    ];
  }
  const events = parseClientEvents(answer.text);
  const unreadable = events.find((event) => event.data !== '[DONE]' && !parseObject(event.data));
  if (unreadable)
    problems.push({
      invariant: 'success is well-formed',
      detail: `an event that is not JSON: ${unreadable.data.slice(0, 80)}`,
    });
  const errorIndex = events.findIndex((event) => isErrorEvent(answer.endpoint, event));
  const completeIndex = events.findIndex((event) => isCompletionEvent(answer.endpoint, event));
  if (errorIndex >= 0 && completeIndex >= 0)
    problems.push({
      invariant: 'a stream never ends complete after an error',
      detail: `error event ${errorIndex}, completion ${completeIndex}`,
    });
  if (expected === 'success') {
    const invariant: ChaosInvariant = answer.failover
      ? 'a fault before the first byte fails over'
      : 'vendor success reaches the client';
    if (completeIndex < 0 || errorIndex >= 0)
      problems.push({ invariant, detail: `stream: ${answer.text.slice(-200)}` });
    else if (!answer.text.includes(chaosAnswerText))
      problems.push({ invariant: 'vendor success reaches the client', detail: 'the answer text is missing' });
  } else if (completeIndex >= 0 || errorIndex < 0) {
    problems.push({ invariant: 'a broken stream never ends complete', detail: `stream: ${answer.text.slice(-200)}` });
  }
  return problems;
}

function isErrorEvent(endpoint: ChaosEndpoint, event: ClientEvent): boolean {
  if (event.event === 'error' || event.event === 'response.failed') return true;
  const data = parseObject(event.data);
  return (
    data !== undefined &&
    (data.type === 'error' ||
      data.type === 'response.failed' ||
      (endpoint !== 'responses' && 'error' in data && data.error !== null))
  );
}

function isCompletionEvent(endpoint: ChaosEndpoint, event: ClientEvent): boolean {
  switch (endpoint) {
    case 'chat':
    case 'completions':
    case 'embeddings':
    case 'images':
      return event.data === '[DONE]';
    case 'responses':
      return event.event === 'response.completed' || event.data.includes('"type":"response.completed"');
    case 'messages':
      return event.event === 'message_stop' || event.data.includes('"type":"message_stop"');
    default: {
      const unknown: never = endpoint;
      throw new Error(`unknown endpoint ${String(unknown)}`);
    }
  }
}

function parseClientEvents(text: string): ClientEvent[] {
  const events: ClientEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice('event:'.length).trim();
      else if (line.startsWith('data:')) data.push(line.slice('data:'.length).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
