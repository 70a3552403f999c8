// The misbehaviours the chaos vendor can play, one per request, named in the request path (`/chaos/<scenario>/...`).

/** Every misbehaviour the chaos vendor plays, and `ok` for a well-behaved answer. */
export const chaosScenarios = [
  'ok',
  'reset-before-head',
  'reset-after-head',
  'redirect-302',
  'redirect-307-location',
  'html-500',
  'empty-503',
  'html-403',
  'payment-402',
  'truncated-json',
  'html-200',
  'truncated-sse',
  'cut-sse',
  'sse-garbage-lines',
  'data-html',
  'error-event',
  'oversized-body',
  'oversized-event',
  'one-byte-a-second',
  'no-answer',
  'shape-empty-array',
  'shape-missing-field',
  'shape-usage-string',
  'json-for-stream',
  'html-for-stream',
  'key-in-error',
] as const;

/** One misbehaviour (or `ok`). */
export type ChaosScenario = (typeof chaosScenarios)[number];

/** True when `name` is a scenario the chaos vendor knows. */
export function isChaosScenario(name: string): name is ChaosScenario {
  return (chaosScenarios as readonly string[]).includes(name);
}

/**
 * What a client of the gateway must get when the vendor plays the scenario: `success` (the vendor's answer,
 * well-formed and complete), or `vendor-fault` (an OpenAI-shaped error with a status of `errorStatusesOf`, or, for a
 * stream that had already begun, an error event and no completion).
 */
export function expectedOutcomeOf(scenario: ChaosScenario, stream: boolean): 'success' | 'vendor-fault' {
  switch (scenario) {
    case 'ok':
    case 'sse-garbage-lines':
      return 'success';
    // A whole answer the vendor got right: only its stream form is broken.
    case 'truncated-sse':
    case 'cut-sse':
    case 'data-html':
    case 'error-event':
    case 'oversized-event':
    case 'json-for-stream':
    case 'html-for-stream':
      return stream ? 'vendor-fault' : 'success';
    case 'reset-before-head':
    case 'reset-after-head':
    case 'redirect-302':
    case 'redirect-307-location':
    case 'html-500':
    case 'empty-503':
    case 'html-403':
    case 'payment-402':
    case 'truncated-json':
    case 'html-200':
    case 'oversized-body':
    case 'one-byte-a-second':
    case 'no-answer':
    case 'shape-empty-array':
    case 'shape-missing-field':
    case 'shape-usage-string':
    case 'key-in-error':
      return 'vendor-fault';
    default: {
      const unknown: never = scenario;
      throw new Error(`unknown chaos scenario ${String(unknown)}`);
    }
  }
}

/** The statuses a client may get for the scenario's fault: 502/503/504, and the vendor's own 400 for a refusal quoting the key. */
export function errorStatusesOf(scenario: ChaosScenario): readonly number[] {
  return scenario === 'key-in-error' ? [400, 502, 503, 504] : [502, 503, 504];
}

/**
 * True when the scenario fails before any byte could reach the client, so the gateway may and must try the next
 * channel: a model with a well-behaved channel behind it then answers with that channel's success. Not a refusal the
 * vendor blames on the request (`key-in-error` is a 400), nor a stream broken after its first event.
 */
export function failsOverFrom(scenario: ChaosScenario, stream: boolean): boolean {
  switch (scenario) {
    case 'ok':
    case 'sse-garbage-lines':
    case 'key-in-error':
      return false;
    case 'truncated-sse':
    case 'cut-sse':
    case 'data-html':
    case 'error-event':
    case 'oversized-event':
      return false;
    case 'json-for-stream':
    case 'html-for-stream':
      return stream;
    case 'reset-before-head':
    case 'reset-after-head':
    case 'redirect-302':
    case 'redirect-307-location':
    case 'html-500':
    case 'empty-503':
    case 'html-403':
    case 'payment-402':
    case 'truncated-json':
    case 'html-200':
    case 'oversized-body':
    case 'one-byte-a-second':
    case 'no-answer':
    case 'shape-empty-array':
    case 'shape-missing-field':
    case 'shape-usage-string':
      return true;
    default: {
      const unknown: never = scenario;
      throw new Error(`unknown chaos scenario ${String(unknown)}`);
    }
  }
}
