import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import pLimit from 'p-limit';

type Argon2 = typeof import('@node-rs/argon2');

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

/**
 * argon2id at the OWASP Password Storage Cheat Sheet's first recommendation: 19 MiB of memory (in KiB), 2 passes,
 * 1 lane. @node-rs/argon2 hashes on libuv's thread pool, off the event loop; its default algorithm is argon2id.
 */
export const passwordHashParameters = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let loadingArgon2: Promise<Argon2> | undefined;

/**
 * @node-rs/argon2, loaded on the first hash or check rather than at start: its native library keeps about 3.5 MB
 * resident in every gateway, and most never see a password sign-in.
 */
function loadArgon2(): Promise<Argon2> {
  loadingArgon2 ??= import('@node-rs/argon2');
  return loadingArgon2;
}

/** argon2id in @node-rs/argon2's `Algorithm` enum (a const enum, which isolated modules cannot read). */
const argon2idAlgorithm = 2;

/** The outcome of checking a password against a stored hash. */
export interface PasswordCheck {
  valid: boolean;
  /** valid, and the hash is a legacy scrypt one or uses other parameters than today's: store a new one */
  needsRehash: boolean;
}

/** Too many hashes are running or waiting; the caller should answer "retry later" instead of queueing more. */
export class PasswordHashingBusyError extends Error {
  constructor() {
    super('Too many password hashes are running or waiting');
    this.name = 'PasswordHashingBusyError';
  }
}

/** Hashes and checks passwords, never more than a bounded number at once. */
export interface PasswordHasher {
  /** a PHC-format argon2id hash (`$argon2id$v=19$m=19456,t=2,p=1$...`) */
  hash(password: string): Promise<string>;
  /**
   * Checks a password against a stored hash (argon2id, or a legacy `scrypt$<salt>$<hash>`). With no stored hash
   * (no such account, or one without a password) it checks against a dummy hash of the same cost and answers
   * invalid, so the time taken does not tell whether an account exists. The first check of a process computes that
   * dummy hash first, whichever account it is for.
   */
  verify(password: string, stored: string | null): Promise<PasswordCheck>;
}

/** How many hashes may run at once and wait; each running argon2id hash holds 19 MiB. */
export interface PasswordHasherLimits {
  /** hashes computed at the same time */
  concurrency: number;
  /** hashes waiting for a slot; beyond that, PasswordHashingBusyError */
  maxWaiting: number;
}

/** Defaults: two hashes at once (38 MiB), 64 waiting (a login flood is refused rather than queued without end). */
export const defaultPasswordHasherLimits: PasswordHasherLimits = { concurrency: 2, maxWaiting: 64 };

/** Builds a hasher with its own bound on concurrent work. */
export function createPasswordHasher(limits: PasswordHasherLimits = defaultPasswordHasherLimits): PasswordHasher {
  const limit = pLimit(limits.concurrency);
  const run = <Result>(work: () => Promise<Result>): Promise<Result> => {
    if (limit.activeCount + limit.pendingCount >= limits.concurrency + limits.maxWaiting)
      return Promise.reject(new PasswordHashingBusyError());
    return limit(work);
  };
  let dummyHash: Promise<string> | undefined;
  const readDummyHash = () => {
    dummyHash ??= loadArgon2()
      .then((argon2) => argon2.hash(randomBytes(24).toString('base64'), passwordHashParameters))
      .catch((error: unknown) => {
        // The next check tries again rather than every sign-in failing for the process's life.
        dummyHash = undefined;
        throw error;
      });
    return dummyHash;
  };

  const refuseAfterDummyCheck = async (argon2: Argon2, dummy: string, password: string): Promise<PasswordCheck> => {
    await run(() => argon2.verify(dummy, password));
    return { valid: false, needsRehash: false };
  };

  return {
    hash: (password) => run(async () => (await loadArgon2()).hash(password, passwordHashParameters)),
    async verify(password, stored) {
      // Known and unknown accounts wait for the same dummy hash, so the first check after start does not tell them apart.
      const [argon2, dummy] = await Promise.all([loadArgon2(), readDummyHash()]);
      if (stored === null) return refuseAfterDummyCheck(argon2, dummy, password);
      if (stored.startsWith('scrypt$')) {
        const valid = await run(() => verifyLegacyScrypt(password, stored));
        return { valid, needsRehash: valid };
      }
      // An unreadable hash still costs one hash's time, like every other failure.
      if (!stored.startsWith('$argon2')) return refuseAfterDummyCheck(argon2, dummy, password);
      // A malformed stored hash is a wrong password, not a server error.
      const valid = await run(() => argon2.verify(stored, password).catch(() => false));
      return { valid, needsRehash: valid && usesOtherParameters(argon2, stored) };
    },
  };
}

/** The process's hasher: one bound for every login and user creation. */
export const passwordHasher: PasswordHasher = createPasswordHasher();

/** Hashes a password with the process's hasher (argon2id, OWASP parameters). */
export function hashPassword(password: string): Promise<string> {
  return passwordHasher.hash(password);
}

/** Checks a password with the process's hasher; see PasswordHasher.verify. */
export function verifyPassword(password: string, stored: string | null): Promise<PasswordCheck> {
  return passwordHasher.verify(password, stored);
}

function usesOtherParameters(argon2: Argon2, stored: string): boolean {
  try {
    const options = argon2.parseOptions(stored);
    return (
      options.algorithm !== argon2idAlgorithm ||
      options.memoryCost !== passwordHashParameters.memoryCost ||
      options.timeCost !== passwordHashParameters.timeCost ||
      options.parallelism !== passwordHashParameters.parallelism
    );
  } catch {
    return true;
  }
}

/** `scrypt$<salt base64>$<hash base64>`, made with Node's default cost (N = 2^14) before argon2id. */
async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length === 0) return false;
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(expected, actual);
}
