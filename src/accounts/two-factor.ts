import { createHash } from 'node:crypto';
import { GatewayError } from '../core/gateway-error.js';
import type { UserRecord } from '../storage/store-records.js';
import type { TwoFactorRecord } from '../storage/two-factor-store.js';
import type { LoginAttemptSubject } from './login-attempt-limiter.js';
import { createRecoveryCodes, createTotpSecret, hashRecoveryCode, totpUri, verifyTotpCode } from './totp.js';
import type { TwoFactorServices } from './two-factor-services.js';

/** A second factor as the user typed it: a code from the authenticator app or one of the recovery codes. */
export type SecondFactor = { kind: 'code'; code: string } | { kind: 'recovery_code'; recoveryCode: string };

/** True when the user has confirmed two-factor, so sign-in asks for a code. */
export function hasTwoFactor(record: TwoFactorRecord | undefined): record is TwoFactorRecord & { enabledAt: number } {
  return record !== undefined && record.enabledAt !== null;
}

/** Starts (or restarts) enrolment: a new secret, sealed and stored unconfirmed, and its otpauth URI for a QR code. */
export async function startTwoFactorEnrolment(
  services: TwoFactorServices,
  user: UserRecord,
  now: number,
): Promise<{ secret: string; otpauthUri: string }> {
  const secret = createTotpSecret();
  if (!(await services.store.startEnrolment(user.id, services.secretBox.encrypt(secret), now)))
    throw new GatewayError('invalid_request_error', 'Two-factor sign-in is already on; turn it off first.');
  return { secret, otpauthUri: totpUri(secret, { issuer: services.issuer, account: user.email }) };
}

/** Confirms enrolment with a current code: only now is two-factor on; returns the recovery codes (shown once). */
export async function confirmTwoFactor(
  services: TwoFactorServices,
  user: UserRecord,
  code: string,
  now: number,
): Promise<string[]> {
  const record = await services.store.find(user.id);
  if (record === undefined || hasTwoFactor(record))
    throw new GatewayError('invalid_request_error', 'No two-factor enrolment is waiting; start one first.');
  const step = verifyTotpCode(services.secretBox.decrypt(record.sealedSecret), code, now);
  if (step === undefined) throw new GatewayError('invalid_request_error', 'The code is wrong.', { param: 'code' });
  const recoveryCodes = createRecoveryCodes();
  const enabled = await services.store.enable(user.id, {
    step,
    recoveryCodeHashes: recoveryCodes.map((recoveryCode) => hashRecoveryCode(user.id, recoveryCode)),
    now,
  });
  if (!enabled) throw new GatewayError('invalid_request_error', 'No two-factor enrolment is waiting; start one first.');
  return recoveryCodes;
}

/**
 * Checks a second factor under the sign-in limits (the same lockout as wrong passwords, on the account's own
 * counter): a code of a step not used before, or an unused recovery code, which is then spent. Wrong, reused and
 * spent codes are refused alike with 401 `unauthorized`; 429 while locked. Returns how the user got through.
 */
export async function checkSecondFactor(
  services: TwoFactorServices,
  user: UserRecord,
  factor: SecondFactor,
  options: { address: string; now: number },
): Promise<SecondFactor['kind']> {
  const record = await services.store.find(user.id);
  if (!hasTwoFactor(record)) throw new GatewayError('invalid_request_error', 'Two-factor sign-in is not on.');
  const check = await services.attempts.checkPassword(
    twoFactorAttemptSubject(user, options.address),
    true,
    async () => ({
      valid: await acceptFactor(services, record, factor, options.now),
      needsRehash: false,
    }),
  );
  if (!check.valid) throw new GatewayError('unauthorized', 'The code is wrong or was used already.', { param: 'code' });
  return factor.kind;
}

async function acceptFactor(
  services: TwoFactorServices,
  record: TwoFactorRecord,
  factor: SecondFactor,
  now: number,
): Promise<boolean> {
  switch (factor.kind) {
    case 'code': {
      const step = verifyTotpCode(services.secretBox.decrypt(record.sealedSecret), factor.code, now);
      return step !== undefined && (await services.store.useStep(record.userId, step));
    }
    case 'recovery_code':
      return services.store.useRecoveryCode(record.userId, hashRecoveryCode(record.userId, factor.recoveryCode), now);
    default:
      return assertNever(factor);
  }
}

/** The limiter's subject for second factors: the account's own counter, apart from its password failures. */
function twoFactorAttemptSubject(user: UserRecord, address: string): LoginAttemptSubject {
  return { emailHash: createHash('sha256').update(`two-factor:${user.id}`).digest('hex'), address };
}

function assertNever(value: never): never {
  throw new Error(`unexpected second factor ${JSON.stringify(value)}`);
}
