/** Refusals of the gateway store that callers turn into answers of their own (the /api maps them to 404 / 403). */

/** A key was to be created in a group its user does not hold, with `groupGrant: 'require'`. */
export class MissingGroupGrantError extends Error {
  constructor(
    readonly userId: string,
    readonly groupId: string,
  ) {
    super(`User ${userId} does not hold model group ${groupId}`);
    this.name = 'MissingGroupGrantError';
  }
}

/** The owner of a key tried to change a key an admin disabled. */
export class KeyDisabledByAdminError extends Error {
  constructor(readonly apiKeyId: string) {
    super(`API key ${apiKeyId} was disabled by an administrator`);
    this.name = 'KeyDisabledByAdminError';
  }
}
