import { GatewayError } from '../core/gateway-error.js';

/**
 * The failures every stream relay ends a stream with when the vendor's stream itself is at fault (not a vendor error
 * event, which carries its own code): after the first byte they become the stream's error event, before it they let
 * another channel answer and, when none can, reach the client as its error status.
 */

/** A stream event whose data is not JSON (an HTML page, cut-off JSON) where the protocol sends JSON. */
export function unreadableStreamEventError(): GatewayError {
  return new GatewayError(
    'upstream_error',
    'The upstream vendor sent a stream event the gateway could not read; the answer is incomplete.',
  );
}

/** The most characters one vendor stream event may hold before the stream is refused (a legitimate one is far smaller). */
export const maximumStreamEventCharacters = 16 * 1024 * 1024;

/** A stream event larger than `maximumStreamEventCharacters`: never buffered whole, the answer ends there. */
export function oversizedStreamEventError(): GatewayError {
  return new GatewayError(
    'upstream_error',
    'The upstream vendor sent a stream event larger than the gateway accepts; the answer is incomplete.',
  );
}

/** A stream the vendor ended (or whose connection broke) before its terminal event. */
export function cutOffStreamError(): GatewayError {
  return new GatewayError('server_error', 'The upstream stream ended unexpectedly; the answer is incomplete.');
}

/** A streamed request the vendor answered with something other than an event stream (plain JSON, an HTML page). */
export function notAnEventStreamError(): GatewayError {
  return new GatewayError('upstream_error', 'The upstream vendor answered a streamed request without an event stream.');
}

/**
 * A vendor's failure of a stream as the client gets it when nothing reached it yet and no channel could answer: a
 * generic vendor failure (`server_error`: its error event, a stream cut before its first event) is a bad gateway (502),
 * every other code (rate limit, unavailable) keeps its own status.
 */
export function failureBeforeFirstByte(error: GatewayError): GatewayError {
  if (error.code !== 'server_error') return error;
  return new GatewayError('upstream_error', error.message, { param: error.param, headers: error.headers });
}

/** True when a vendor's content type is the event stream a streamed request expects (`text/event-stream`, any parameters). */
export function isEventStreamContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.trimStart().toLowerCase().startsWith('text/event-stream');
}

/** True when a vendor's content type is a stream of events: SSE, or Bedrock's binary `application/vnd.amazon.eventstream`. */
export function isStreamContentType(contentType: string | undefined): boolean {
  return (
    isEventStreamContentType(contentType) ||
    (contentType !== undefined &&
      contentType.trimStart().toLowerCase().startsWith('application/vnd.amazon.eventstream'))
  );
}
