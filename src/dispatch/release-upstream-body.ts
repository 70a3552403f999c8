import type { Readable } from 'node:stream';

/** How long an upstream may take to end a body whose answer is complete before its connection is closed, not reused. */
const releaseTimeoutMs = 1_000;

/**
 * Lets the rest of an upstream body whose answer is complete (`[DONE]`, a terminal event) arrive and be dropped, so its
 * keep-alive connection goes back to the pool. Destroying the body there instead, before the response's last bytes
 * were read, closes the connection: every stream then paid a new TCP connection to its vendor. A body that does not
 * end within a second is destroyed after all.
 */
export function releaseUpstreamBody(body: Readable): void {
  if (body.destroyed) return;
  const timer = setTimeout(() => body.destroy(), releaseTimeoutMs);
  timer.unref();
  // 'close' fires once; `on` spares every stream `once`'s wrapper and bound function.
  body.on('close', () => clearTimeout(timer));
  // A connection failing while the rest is dropped changes nothing: the answer was complete.
  body.on('error', () => undefined);
  body.resume();
}

/**
 * Closes an upstream body the relay no longer reads (a cut-off or failed stream, a client gone). undici then emits
 * the abort as an 'error' on the body; with no reader left listening, that error would be uncaught and end the process.
 */
export function discardUpstreamBody(body: Readable): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}
