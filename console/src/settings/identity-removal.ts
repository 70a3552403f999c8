import type { IdentityList } from './settings-types';

/**
 * Whether an identity may be unlinked: not when it is the account's last way in (no password and no other
 * identity), which the gateway refuses too.
 */
export function canUnlinkIdentity(identities: IdentityList): boolean {
  return identities.hasPassword || identities.data.length > 1;
}
