/** A user's TOTP two-factor state; timestamps are Unix milliseconds. */
export interface TwoFactorRecord {
  userId: string;
  /** the TOTP secret sealed with the secret box */
  sealedSecret: string;
  /** when the confirming code arrived; null while enrolment waits for it (not yet asked at sign-in) */
  enabledAt: number | null;
  /** the newest time step whose code was accepted */
  lastUsedStep: number | null;
  /** recovery codes not used yet */
  recoveryCodesLeft: number;
}

/** A sign-in waiting for its second factor. */
export interface TwoFactorChallengeRecord {
  userId: string;
  returnPath: string;
  expiresAt: number;
}

/** Durable two-factor secrets, recovery codes and pending second-factor sign-ins. */
export interface TwoFactorStore {
  find(userId: string): Promise<TwoFactorRecord | undefined>;
  /** starts (or restarts) enrolment with a new sealed secret; false when two-factor is already enabled */
  startEnrolment(userId: string, sealedSecret: string, now: number): Promise<boolean>;
  /**
   * enables two-factor with the confirming code's step and replaces the recovery codes; false when no enrolment is
   * waiting (already enabled, or none started)
   */
  enable(userId: string, options: { step: number; recoveryCodeHashes: string[]; now: number }): Promise<boolean>;
  /** replaces every recovery code (used or not) with new ones; false when two-factor is not on */
  replaceRecoveryCodes(userId: string, recoveryCodeHashes: string[]): Promise<boolean>;
  /** removes the secret and recovery codes; false when the user had none */
  disable(userId: string): Promise<boolean>;
  /** records a code's time step as used unless that step or a later one was; false when it was (a reused code) */
  useStep(userId: string, step: number): Promise<boolean>;
  /** marks an unused recovery code as used; false when no unused code has that hash */
  useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean>;

  createChallenge(tokenHash: string, challenge: TwoFactorChallengeRecord): Promise<void>;
  /** the live challenge of a token hash */
  findChallenge(tokenHash: string, now: number): Promise<TwoFactorChallengeRecord | undefined>;
  /** ends a challenge (used, or superseded) and drops expired ones */
  deleteChallenge(tokenHash: string, now: number): Promise<void>;
}
