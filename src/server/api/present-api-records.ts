import { formatMicroUnits } from '../../billing/money.js';
import type { ApiKeyBillingRecord, LedgerEntryRecord, UsageLogRecord } from '../../storage/billing-records.js';
import type { ApiKeyRecord, UserRecord } from '../../storage/store-records.js';

/** A user as the /api shows it: never the password hash. */
export function presentUser(user: UserRecord) {
  return { id: user.id, email: user.email, displayName: user.displayName, role: user.role, status: user.status, createdAt: user.createdAt };
}

/** A key as the /api lists it: never the hash, never the secret. */
export function presentApiKey(key: ApiKeyRecord, billing: Omit<ApiKeyBillingRecord, 'apiKeyId'> | undefined) {
  return {
    id: key.id,
    userId: key.userId,
    groupId: key.groupId,
    name: key.name,
    keyPrefix: key.keyPrefix,
    status: key.status,
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

/** A usage log row. */
export function presentUsageLog(log: UsageLogRecord) {
  return { ...log };
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
