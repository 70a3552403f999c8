import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { handleShutdownSignals, type ShutdownProcess, type ShutdownSignal } from './handle-shutdown-signals.js';

/** A process stand-in: signals are emitted by hand, exit codes are recorded instead of ending the test run. */
function createFakeProcess(): ShutdownProcess & { send(signal: ShutdownSignal): void; exitCodes: number[] } {
  const emitter = new EventEmitter();
  const exitCodes: number[] = [];
  return {
    on: (signal, listener) => emitter.on(signal, listener),
    exit: (code) => {
      exitCodes.push(code);
    },
    send: (signal) => emitter.emit(signal),
    exitCodes,
  };
}

function createRecordingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  return { logger, messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg) };
}

describe('handleShutdownSignals', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('drains on %s and exits 0 once closing finished', async (signal) => {
    const target = createFakeProcess();
    const { logger, messages } = createRecordingLogger();
    let finishClose: () => void = () => undefined;
    const close = vi.fn(() => new Promise<void>((resolve) => (finishClose = resolve)));
    handleShutdownSignals({ close, logger, target });

    target.send(signal);
    expect(close).toHaveBeenCalledTimes(1);
    expect(target.exitCodes).toEqual([]);
    finishClose();
    await vi.waitFor(() => expect(target.exitCodes).toEqual([0]));
    expect(messages().at(-1)).toMatch(/^shutdown complete/);
  });

  it('exits 1 and logs when closing fails', async () => {
    const target = createFakeProcess();
    const { logger, messages } = createRecordingLogger();
    handleShutdownSignals({ close: () => Promise.reject(new Error('database gone')), logger, target });
    target.send('SIGTERM');
    await vi.waitFor(() => expect(target.exitCodes).toEqual([1]));
    expect(messages()).toContain('shutdown failed');
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('a second %s during the drain exits at once with %i, without closing again', (signal, code) => {
    const target = createFakeProcess();
    const { logger, messages } = createRecordingLogger();
    const close = vi.fn(() => new Promise<void>(() => undefined));
    handleShutdownSignals({ close, logger, target });

    target.send('SIGTERM');
    target.send(signal);
    expect(target.exitCodes).toEqual([code]);
    expect(close).toHaveBeenCalledTimes(1);
    expect(messages().at(-1)).toMatch(/^second signal during shutdown/);
  });
});
