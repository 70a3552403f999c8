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
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
