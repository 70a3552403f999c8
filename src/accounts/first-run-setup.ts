import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a setup token would get now: it is right, it is wrong, or setup has closed meanwhile. */
export type FirstRunSetupCheck = 'matches' | 'wrong-token' | 'closed';

/**
 * The one-time first-run setup of a database without an administrator: a random token, kept in this process only as
 * its SHA-256, that lets exactly one caller create the first admin. `claim` checks and consumes the token in one
 * synchronous step, so of several concurrent calls with the right token only one proceeds.
 */
export class FirstRunSetup {
  private tokenHash: Buffer | undefined;

  private constructor(tokenHash: Buffer | undefined) {
    this.tokenHash = tokenHash;
  }

  /** A setup that is open, and the token to print (the only time it exists in clear). */
  static open(): { setup: FirstRunSetup; token: string } {
    const token = randomBytes(32).toString('base64url');
    return { setup: new FirstRunSetup(hashToken(token)), token };
  }

  /** A setup that is closed for good (the database already has an administrator). */
  static closed(): FirstRunSetup {
    return new FirstRunSetup(undefined);
  }

  /** Whether a token is still waiting to be used. */
  get isOpen(): boolean {
    return this.tokenHash !== undefined;
  }

  /**
   * What a token would get, without consuming it, read at the moment of the call: a concurrent caller may have claimed
   * the token since the caller last saw setup open, and that caller must hear "closed", not "wrong token".
   */
  check(token: string): FirstRunSetupCheck {
    if (this.tokenHash === undefined) return 'closed';
    return timingSafeEqual(this.tokenHash, hashToken(token)) ? 'matches' : 'wrong-token';
  }

  /** Consumes the token if it is right; true for exactly one caller. Returns a function that reopens it if creating the admin fails. */
  claim(token: string): (() => void) | undefined {
    if (this.check(token) !== 'matches') return undefined;
    const claimed = this.tokenHash;
    this.tokenHash = undefined;
    return () => {
      this.tokenHash = claimed;
    };
  }

  /** Closes setup for good (an admin appeared another way, e.g. `gateway admin create`). */
  close(): void {
    this.tokenHash = undefined;
  }
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
