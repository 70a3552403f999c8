import type { Readable } from 'node:stream';

/** What a chunk handler decides: read on, or stop reading (the caller then releases or discards the body). */
export type ChunkVerdict = 'continue' | 'stop';

/** How reading ended: the body ended, or the handler stopped it. */
export type UpstreamBodyEnding = 'ended' | 'stopped';

/**
 * Reads an upstream body chunk by chunk with 'data' events until the handler says 'stop', the body ends, or it fails
 * (the promise then rejects). An async iterator would cost a promise, a result object and a 'readable' round per chunk:
 * a relayed event stream has one chunk per event. A handler that must wait (a client whose buffer is full) returns a
 * promise of its verdict, and the body is paused meanwhile. The body is never destroyed here and keeps an error
 * listener, so an error after reading stopped is never uncaught (see release-upstream-body.ts for what follows).
 */
export function readUpstreamBody(
  body: Readable,
  onChunk: (bytes: Buffer) => ChunkVerdict | Promise<ChunkVerdict>,
): Promise<UpstreamBodyEnding> {
  if (body.readableEnded) return Promise.resolve('ended');
  if (body.destroyed)
    return Promise.reject(body.errored ?? new Error('The upstream body was closed before it was read.'));
  return new Promise((resolve, reject) => {
    let settled = false;
    // A handler's verdict is pending: the body's end (which pausing does not hold back once its buffer is empty) waits for it.
    let waitingForVerdict = false;
    let endedMeanwhile = false;
    const settle = (ending: UpstreamBodyEnding | Error): void => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      body.pause();
      if (ending instanceof Error) reject(ending);
      else resolve(ending);
    };
    const onData = (bytes: Buffer): void => {
      let verdict: ChunkVerdict | Promise<ChunkVerdict>;
      try {
        verdict = onChunk(bytes);
      } catch (error) {
        settle(asError(error));
        return;
      }
      if (verdict === 'continue') return;
      if (verdict === 'stop') {
        settle('stopped');
        return;
      }
      body.pause();
      waitingForVerdict = true;
      verdict.then(
        (later) => {
          waitingForVerdict = false;
          if (later === 'stop') settle('stopped');
          else if (endedMeanwhile) settle('ended');
          else if (!settled) body.resume();
        },
        (error: unknown) => settle(asError(error)),
      );
    };
    const onEnd = (): void => {
      if (waitingForVerdict) endedMeanwhile = true;
      else settle('ended');
    };
    const onClose = (): void => {
      // 'close' follows 'end'; an end still waiting for a verdict is no premature close.
      if (!endedMeanwhile) settle(body.errored ?? new Error('The upstream body closed before its end.'));
    };
    body.on('data', onData);
    // Each fires once, and settling removes them: `on` spares every stream `once`'s wrappers and bound functions.
    body.on('end', onEnd);
    body.on('close', onClose);
    // Stays after reading stops: the caller releases or discards the body, and an error meanwhile must have a listener.
    body.on('error', (error) => settle(error));
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
