// The /api answers the console reads (see docs/API.md "Console API"). Amounts are integer micro-units.

/** A user as /api shows one. */
export interface ApiUser {
  id: string;
  email: string;
  displayName: string;
  role: 'user' | 'admin';
  status: string;
  /** Unix milliseconds */
  createdAt: number;
}

/** A balance in micro-units. */
export interface ApiBalance {
  balance: number;
  held: number;
  available: number;
  debt: number;
}

/** GET /api/me */
export interface CurrentSession {
  /** null for an admin token, which has no account of its own */
  user: ApiUser | null;
  isAdmin: boolean;
  balance: ApiBalance | null;
}

/** GET /api/auth/session */
export interface SessionState {
  signedIn: boolean;
  isAdmin: boolean;
}

/** One sign-in provider of GET /api/auth/providers. */
export interface SignInProvider {
  id: 'github' | 'oidc';
  name: string;
  /** where the browser goes to start signing in */
  startUrl: string;
}

/** GET /api/auth/providers */
export interface SignInOptions {
  providers: SignInProvider[];
  /** whether email + password sign-in is offered */
  password: boolean;
}

/** GET /api/setup */
export interface SetupState {
  open: boolean;
}

/** One model of a granted group, prices after the group's ratio (micro-units per million tokens). */
export interface GroupModel {
  id: string;
  available: boolean;
  ownedBy?: string;
}

/** A group the caller holds (GET /api/me/groups). */
export interface GrantedGroup {
  id: string;
  name: string;
  description: string;
  /** price multiplier in millionths: 1,500,000 = ×1.5 */
  priceRatioMillionths: number;
  models: GroupModel[];
}

/** Why a key does not work now. */
export type KeyDisabledReason = 'disabled_by_owner' | 'disabled_by_admin' | 'group_not_granted' | 'expired';

/** An API key as GET /api/keys lists it (never the secret). */
export interface ApiKey {
  id: string;
  userId: string;
  groupId: string;
  name: string;
  keyPrefix: string;
  status: 'active' | 'disabled';
  disabledBy: 'owner' | 'admin' | null;
  usable: boolean;
  disabledReason: KeyDisabledReason | null;
  /** Unix milliseconds, or null for never */
  expiresAt: number | null;
  createdAt: number;
  /** micro-units, or null for no cap */
  spendingCap: number | null;
  /** micro-units */
  spent: number;
  allowedIps: string[];
  /** Unix milliseconds of the newest request, or null */
  lastUsedAt?: number | null;
}

/** POST /api/keys: the new key with its secret, shown this once. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

/** A list answer. */
export interface DataList<Item> {
  data: Item[];
}

/** A newest-first page of a list with its cursor. */
export interface CursorPage<Item> {
  data: Item[];
  /** pass as `cursor` for the next page; null on the last one */
  nextCursor: string | null;
}
