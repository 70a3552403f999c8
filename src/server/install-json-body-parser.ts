import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';

/**
 * JSON nested deeper than this is refused with 400. No OpenAI request comes near it (a structured-output schema
 * nests a few levels), while bodies nested thousands deep make vendors and recursive code fail with a 5xx.
 */
export const maximumJsonDepth = 100;

/**
 * Fastify's JSON parser (prototype poisoning refused), behind a depth check on the raw text that runs before
 * anything parses it, so an absurdly nested body is the client's 400 rather than anyone's stack overflow.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (exceedsJsonDepth(text, maximumJsonDepth)) {
      done(new GatewayError('invalid_request_error', `The JSON body is nested more than ${maximumJsonDepth} levels deep.`), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/** True when arrays and objects in `text` nest deeper than `limit`; brackets inside strings do not count. */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  // Each level takes at least one character: a shorter text cannot nest that deep.
  if (text.length <= limit) return false;
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // Strings are skipped with indexOf, not character by character: large bodies are mostly long strings (base64).
      index = findClosingQuote(text, index + 1);
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** Index of the quote that ends the string starting at `from`, or the text's length when it never ends. */
function findClosingQuote(text: string, from: number): number {
  let quote = text.indexOf('"', from);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
    // An even number of backslashes escape each other, not the quote.
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}
