import { formatMicroUnits } from '../../billing/money.js';
import type { ApiKeyBillingRecord, LedgerEntryRecord, UsageLogRecord } from '../../storage/billing-records.js';
import type { ApiKeyRecord, UserRecord } from '../../storage/store-records.js';

/** A user as the /api shows it: never the password hash. */
export function presentUser(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    status: user.status,
    createdAt: user.createdAt,
  };
}

/** Why a key does not work on /v1 right now, or null when it does. */
export type ApiKeyDisabledReason = 'disabled_by_owner' | 'disabled_by_admin' | 'group_not_granted' | 'expired';

/** What decides whether a key works besides its own row: its user's grants and the time. */
export interface ApiKeyAccess {
  /** whether the key's user holds the key's group */
  groupGranted: boolean;
  /** Unix milliseconds */
  now: number;
}

/** The first reason a key cannot be used, in the order an owner would fix them. */
export function findApiKeyDisabledReason(key: ApiKeyRecord, access: ApiKeyAccess): ApiKeyDisabledReason | null {
  if (key.status === 'disabled') return key.disabledBy === 'owner' ? 'disabled_by_owner' : 'disabled_by_admin';
  if (!access.groupGranted) return 'group_not_granted';
  if (key.expiresAt !== null && key.expiresAt <= access.now) return 'expired';
  return null;
}

/** A key as the /api lists it: never the hash, never the secret. */
export function presentApiKey(
  key: ApiKeyRecord,
  billing: Omit<ApiKeyBillingRecord, 'apiKeyId'> | undefined,
  access: ApiKeyAccess,
) {
  const disabledReason = findApiKeyDisabledReason(key, access);
  return {
    id: key.id,
    userId: key.userId,
    groupId: key.groupId,
    name: key.name,
    keyPrefix: key.keyPrefix,
    status: key.status,
    /** `owner` or `admin` while disabled, else null */
    disabledBy: key.disabledBy,
    /** whether /v1 accepts the key now (its user's own state aside) */
    usable: disabledReason === null,
    disabledReason,
    expiresAt: key.expiresAt,
    createdAt: key.createdAt,
    spendingCap: billing?.spendingCap ?? null,
    spent: billing?.spent ?? 0,
    allowedIps: billing?.allowedIps ?? [],
    limits: billing?.limits ?? { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null },
  };
}

/** A ledger entry with its amount also as a decimal string. */
export function presentLedgerEntry(entry: LedgerEntryRecord) {
  return { ...entry, amountText: formatMicroUnits(entry.amount) };
}

/** A usage log row; `pricing` (what its cost was computed from) is null for refused requests and rows logged before it was kept. */
export function presentUsageLog(log: UsageLogRecord) {
  return { ...log, pricing: log.pricing };
}

/** A cursor for the next page of a newest-first list. */
export function encodeCursor(rows: ReadonlyArray<{ createdAt: number; id: string }>, limit: number): string | null {
  const last = rows.at(-1);
  return rows.length < limit || !last ? null : `${last.createdAt}:${last.id}`;
}

/** Reads a cursor made by `encodeCursor`. */
export function parseCursor(cursor: string | undefined): { createdAt: number; id: string } | undefined {
  if (!cursor) return undefined;
  const separator = cursor.indexOf(':');
  const createdAt = Number(cursor.slice(0, separator));
  if (separator <= 0 || !Number.isSafeInteger(createdAt)) return undefined;
  return { createdAt, id: cursor.slice(separator + 1) };
}
