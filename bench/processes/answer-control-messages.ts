// The measured side of the control channel: answers stats, gc and stop requests from the harness over IPC.
import type { ControlMessage, ControlRequest, ProcessStats } from '../child-control-protocol.js';

/** Sends a message to the harness; a no-op when the process was not started with an IPC channel. */
export function sendToHarness(message: ControlMessage): void {
  process.send?.(message);
}

/** Answers the harness until it asks to stop; `stop` closes what the process runs before it exits. */
export function answerControlMessages(stop: () => Promise<void>): void {
  process.on('message', (message: ControlRequest) => {
    if (message.type === 'stats') sendToHarness({ type: 'answer', id: message.id, stats: readProcessStats() });
    if (message.type === 'gc') {
      // Available because the harness starts measured processes with --expose-gc.
      (globalThis as { gc?: () => void }).gc?.();
      sendToHarness({ type: 'answer', id: message.id });
    }
    // The harness waits for this process to exit rather than for an answer.
    if (message.type === 'stop') void stopAndExit(stop);
  });
  // If the harness dies, do not linger.
  process.on('disconnect', () => void stopAndExit(stop));
}

/** Reports a startup failure to the harness and exits. */
export function failStartup(error: unknown): never {
  sendToHarness({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}

function readProcessStats(): ProcessStats {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return {
    cpuMicros: cpu.user + cpu.system,
    rssBytes: memory.rss,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBytes: memory.heapUsed,
    heapTotalBytes: memory.heapTotal,
    externalBytes: memory.external,
  };
}

let stopping = false;

async function stopAndExit(stop: () => Promise<void>): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await stop();
  } finally {
    // process.exit (not a kill) lets --cpu-prof write its profile.
    process.exit(0);
  }
}
