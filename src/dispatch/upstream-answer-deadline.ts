import type { Readable } from 'node:stream';
import { errors } from 'undici';

/**
 * The overall deadline of one non-streamed vendor answer (`GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS`), counted from when its
 * request is sent until its whole body was read. undici's body timeout only bounds the silence between two chunks, so
 * a vendor that trickles a byte a second would otherwise hold the request forever. When the deadline passes, the body
 * is destroyed with undici's own body-timeout error (an 'error' listener added first), so its connection is closed and
 * the attempt fails, and fails over, like a body that went silent: 504 `upstream_timeout` when no channel answers.
 * One unref'd timer per non-streamed request; streams have none (a long stream is legitimate).
 */
export class UpstreamAnswerDeadline {
  private readonly timer: NodeJS.Timeout;
  private body: Readable | undefined;
  private passed = false;

  /** Starts the deadline; `onCut` is told when it passed with the body still being read (for the log). */
  constructor(
    private readonly timeoutMs: number,
    private readonly onCut: () => void,
  ) {
    this.timer = setTimeout(passDeadline, timeoutMs, this);
    this.timer.unref();
  }

  /** The longest wait for the response head within the deadline: undici's headers timeout, shortened to it (0 = none). */
  headersTimeoutMs(configuredMs: number): number {
    return configuredMs > 0 ? Math.min(configuredMs, this.timeoutMs) : this.timeoutMs;
  }

  /** The answer's body: destroyed when the deadline passes, at once when it already has. */
  watch(body: Readable): void {
    this.body = body;
    if (this.passed) this.cut(body);
  }

  /** Stops the timer: the attempt is over (its answer read, or failed). */
  clear(): void {
    clearTimeout(this.timer);
    this.body = undefined;
  }

  /** Called by the timer. */
  pass(): void {
    this.passed = true;
    if (this.body) this.cut(this.body);
  }

  private cut(body: Readable): void {
    this.body = undefined;
    if (body.destroyed || body.readableEnded) return;
    // A body nobody reads any more (its answer failed elsewhere) must not turn the abort into an uncaught 'error'.
    body.on('error', () => undefined);
    body.destroy(
      new errors.BodyTimeoutError(
        `The upstream answer was not complete within GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS (${this.timeoutMs} ms).`,
      ),
    );
    this.onCut();
  }
}

function passDeadline(deadline: UpstreamAnswerDeadline): void {
  deadline.pass();
}
