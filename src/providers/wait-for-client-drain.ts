import type { ServerResponse } from 'node:http';

/** How waiting for a client to take more bytes ended. */
export type ClientDrainOutcome = 'drained' | 'closed' | 'timed-out';

/**
 * Waits until the response can take more bytes again. A client that stops reading would otherwise hold the
 * upstream stream, its buffers and its slots for as long as it likes: after `timeoutMs` (0 = no deadline) the
 * response is destroyed, which closes the connection, aborts the upstream request through the forwarding's
 * close handler, and lets the relay settle what was generated.
 */
export function waitForClientDrain(response: ServerResponse, timeoutMs: number): Promise<ClientDrainOutcome> {
  if (response.destroyed) return Promise.resolve('closed');
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: ClientDrainOutcome): void => {
      clearTimeout(timer);
      response.off('drain', onDrain);
      response.off('close', onClose);
      resolve(outcome);
    };
    const onDrain = (): void => finish('drained');
    const onClose = (): void => finish('closed');
    response.on('drain', onDrain);
    response.on('close', onClose);
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        finish('timed-out');
        response.destroy();
      }, timeoutMs);
    }
  });
}
