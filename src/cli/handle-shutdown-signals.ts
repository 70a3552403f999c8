import type { Logger } from 'pino';

/** The signals `gateway start` drains on. */
export const shutdownSignals = ['SIGTERM', 'SIGINT'] as const;

/** One of the signals `gateway start` drains on. */
export type ShutdownSignal = (typeof shutdownSignals)[number];

/** The part of `process` the handler uses, so a test can send signals and see the exit code without exiting. */
export interface ShutdownProcess {
  on(signal: ShutdownSignal, listener: () => void): unknown;
  exit(code: number): void;
}

/** The exit code of a process ended at once by a second signal: 128 + the signal's number, as a shell reports a killed one. */
export const immediateExitCodes: Readonly<Record<ShutdownSignal, number>> = { SIGTERM: 143, SIGINT: 130 };

/**
 * On the first SIGTERM or SIGINT, drains the gateway with `close` (stop accepting, let in-flight work finish within the
 * grace period, settle and flush, close the stores) and exits 0, or 1 when closing failed. A second signal while it
 * drains exits at once with 128 + the signal's number: the operator chose to lose what is still in flight.
 */
export function handleShutdownSignals(options: {
  close: () => Promise<void>;
  logger: Logger;
  target?: ShutdownProcess;
}): void {
  const target = options.target ?? process;
  const { logger } = options;
  let draining = false;
  const onSignal = (signal: ShutdownSignal): void => {
    if (draining) {
      logger.error(
        { signal },
        'second signal during shutdown: exiting at once; requests still in flight and settlements not yet written are lost',
      );
      target.exit(immediateExitCodes[signal]);
      return;
    }
    draining = true;
    logger.info({ signal }, 'shutting down: no new connections, in-flight requests get the grace period');
    options.close().then(
      () => {
        logger.info({ signal }, 'shutdown complete: every settlement written, stores closed');
        target.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        target.exit(1);
      },
    );
  };
  for (const signal of shutdownSignals) target.on(signal, () => onSignal(signal));
}
