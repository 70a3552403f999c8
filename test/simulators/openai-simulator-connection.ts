// Watches one response's connection: notices clients that leave early, and breaks it on purpose when asked.
import type { ServerResponse } from 'node:http';

/** The client connection behind one request. */
export class ClientConnection {
  private readonly response: ServerResponse;
  private closed = false;
  private brokenOnPurpose = false;

  /** `onClientAbort` runs once if the client closes the connection before the response finished. */
  constructor(response: ServerResponse, onClientAbort: () => void) {
    this.response = response;
    response.once('close', () => {
      this.closed = true;
      // 'close' also fires after a normal finish, and after our own deliberate breaks: neither is a client abort.
      if (!response.writableFinished && !this.brokenOnPurpose) onClientAbort();
    });
  }

  /** True until the connection closed, for whatever reason. */
  get isOpen(): boolean {
    return !this.closed;
  }

  /** Destroys the socket mid-response, as a crashing vendor would; not counted as a client abort. */
  breakOnPurpose(): void {
    this.brokenOnPurpose = true;
    this.response.destroy();
  }

  /** Ends the body early but cleanly (a vendor that gives up after an error event); not a client abort. */
  endOnPurpose(): void {
    this.brokenOnPurpose = true;
    this.response.end();
  }

  /** Resolves after `milliseconds`, or earlier if the connection closes meanwhile. */
  wait(milliseconds: number): Promise<void> {
    if (milliseconds <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.response.off('close', finish);
        resolve();
      };
      const timer = setTimeout(finish, milliseconds);
      this.response.once('close', finish);
    });
  }

  /** Writes one piece of the body; resolves when it may continue (buffer drained, flushed if asked, or closed). */
  write(text: string, waitUntilFlushed = false): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (waitUntilFlushed) return new Promise((resolve) => this.response.write(text, () => resolve()));
    if (this.response.write(text)) return Promise.resolve();
    return this.waitForDrain();
  }

  private waitForDrain(): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        this.response.off('drain', finish);
        this.response.off('close', finish);
        resolve();
      };
      this.response.once('drain', finish);
      this.response.once('close', finish);
    });
  }
}
