import { randomBytes, scryptSync } from 'node:crypto';
import { hash as argon2Hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher, hashPassword, PasswordHashingBusyError, verifyPassword } from './password-hash.js';

/** A hash as the gateway stored it before argon2id: `scrypt$<salt>$<hash>` with Node's default cost. */
function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(password, salt, 32).toString('base64')}`;
}

describe('password hashing', () => {
  it('hashes with argon2id at the OWASP parameters (19 MiB, 2 passes, 1 lane) and verifies', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse', stored)).toEqual({ valid: true, needsRehash: false });
    expect(await verifyPassword('wrong horse', stored)).toEqual({ valid: false, needsRehash: false });
  });

  it('still verifies legacy scrypt hashes and asks for them to be re-hashed', async () => {
    const stored = legacyScryptHash('old password');
    expect(await verifyPassword('old password', stored)).toEqual({ valid: true, needsRehash: true });
    expect((await verifyPassword('not it', stored)).valid).toBe(false);
  });

  it('asks to re-hash argon2 hashes made with weaker parameters', async () => {
    const weak = await argon2Hash('pw', { memoryCost: 4_096, timeCost: 1, parallelism: 1 });
    expect(await verifyPassword('pw', weak)).toEqual({ valid: true, needsRehash: true });
  });

  it('answers invalid, without throwing, for a missing or unreadable hash', async () => {
    expect(await verifyPassword('pw', null)).toEqual({ valid: false, needsRehash: false });
    expect(await verifyPassword('pw', 'bcrypt$whatever')).toEqual({ valid: false, needsRehash: false });
    expect(await verifyPassword('pw', '$argon2id$v=19$garbage')).toEqual({ valid: false, needsRehash: false });
  });

  it('runs a bounded number of hashes and refuses work beyond the waiting room instead of queueing it', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, maxWaiting: 2 });
    const stored = await hasher.hash('pw');
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => hasher.verify('pw', stored)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused).toHaveLength(2);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(PasswordHashingBusyError);
    // Once the queue drains, work is accepted again.
    expect((await hasher.verify('pw', stored)).valid).toBe(true);
  });
});
