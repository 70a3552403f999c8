import { BlockList, isIP } from 'node:net';
import { assertNever } from '../core/assert-never.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ApiKeyAdminLimits } from '../storage/store-records.js';

/** A key's limits as its owner and administrators set them: expiry, spending cap, address list, request limits. */
export interface KeyLimitValues {
  /** Unix milliseconds, or null for never */
  expiresAt: number | null;
  /** micro-units, or null for no cap */
  spendingCap: number | null;
  /** IP addresses or CIDR ranges; empty means any address */
  allowedIps: string[];
  /** null keeps the operator's default for keys, 0 is unlimited */
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  maxConcurrentRequests: number | null;
}

/** What one create or edit sets; an absent field keeps its value. */
export type KeyLimitChanges = Partial<KeyLimitValues>;

/** Who makes a change: the key's `owner`, or an `admin` (admin users and admin tokens). */
export type KeyLimitActor = 'owner' | 'admin';

const requestLimitNames = ['requestsPerMinute', 'tokensPerMinute', 'maxConcurrentRequests'] as const;

/**
 * The rule for who may loosen a key's limits, for the /api and the CLI alike. An administrator's change is taken as
 * given and becomes the bound for each limit it sets (lifting a limit lifts the bound). The owner may tighten any
 * limit an administrator set (an earlier expiry, a lower cap, addresses inside the allowed ones, a lower request
 * limit), never loosen it: a later or no expiry, a higher or no cap, an address outside the list or an empty list, or
 * a higher, default (null) or unlimited (0) request limit is refused with 403 naming the field. Limits no
 * administrator set stay the owner's to change. Returns the administrator bounds to store after the change.
 */
export function planKeyLimitChange(
  actor: KeyLimitActor,
  adminLimits: ApiKeyAdminLimits,
  changes: KeyLimitChanges,
): ApiKeyAdminLimits {
  switch (actor) {
    case 'admin':
      return adminLimitsAfterAdminChange(adminLimits, changes);
    case 'owner':
      requireOwnerChangeWithinAdminLimits(adminLimits, changes);
      return adminLimits;
    default:
      return assertNever(actor, 'key limit actor');
  }
}

function adminLimitsAfterAdminChange(previous: ApiKeyAdminLimits, changes: KeyLimitChanges): ApiKeyAdminLimits {
  const next: ApiKeyAdminLimits = { ...previous };
  if (changes.expiresAt !== undefined) setOrLift(next, 'expiresAt', changes.expiresAt ?? undefined);
  if (changes.spendingCap !== undefined) setOrLift(next, 'spendingCap', changes.spendingCap ?? undefined);
  if (changes.allowedIps !== undefined)
    setOrLift(next, 'allowedIps', changes.allowedIps.length > 0 ? [...changes.allowedIps] : undefined);
  for (const name of requestLimitNames) {
    const value = changes[name];
    // null (the operator's default) and 0 (unlimited) bind the owner to nothing an administrator chose.
    if (value !== undefined) setOrLift(next, name, value === null || value === 0 ? undefined : value);
  }
  return next;
}

function setOrLift<Name extends keyof ApiKeyAdminLimits>(
  limits: ApiKeyAdminLimits,
  name: Name,
  value: ApiKeyAdminLimits[Name],
): void {
  if (value === undefined) delete limits[name];
  else limits[name] = value;
}

function requireOwnerChangeWithinAdminLimits(adminLimits: ApiKeyAdminLimits, changes: KeyLimitChanges): void {
  const { expiresAt, spendingCap, allowedIps } = adminLimits;
  if (expiresAt !== undefined && changes.expiresAt !== undefined) {
    if (changes.expiresAt === null || changes.expiresAt > expiresAt)
      throw refused(
        'expiresAt',
        `An administrator set this key to expire at ${new Date(expiresAt).toISOString()}; you may make it expire sooner, not later or never.`,
      );
  }
  if (spendingCap !== undefined && changes.spendingCap !== undefined) {
    if (changes.spendingCap === null || changes.spendingCap > spendingCap)
      throw refused(
        'spendingCap',
        `An administrator capped this key's spending at ${spendingCap} micro-units; you may lower the cap, not raise or remove it.`,
      );
  }
  if (allowedIps !== undefined && changes.allowedIps !== undefined) {
    const outside =
      changes.allowedIps.length === 0
        ? 'any address'
        : changes.allowedIps.find((entry) => !isInside(entry, allowedIps));
    if (outside !== undefined)
      throw refused(
        'allowedIps',
        `An administrator limited this key to ${allowedIps.join(', ')}; you may narrow the list to addresses inside it, not allow ${outside}.`,
      );
  }
  for (const name of requestLimitNames) {
    const bound = adminLimits[name];
    const requested = changes[name];
    if (bound === undefined || requested === undefined) continue;
    if (requested === null || requested === 0 || requested > bound)
      throw refused(
        `limits.${name}`,
        `An administrator set limits.${name} to ${bound} on this key; you may lower it (1 to ${bound}), not raise it, make it unlimited or return it to the default.`,
      );
  }
}

function refused(param: string, message: string): GatewayError {
  return new GatewayError('forbidden', message, { param });
}

/** Whether every address of `entry` (an address or CIDR range) lies in one of `allowed`. */
function isInside(entry: string, allowed: readonly string[]): boolean {
  const inner = parseRange(entry);
  if (!inner) return false;
  return allowed.some((candidate) => {
    const outer = parseRange(candidate);
    if (!outer || outer.family !== inner.family || inner.prefix < outer.prefix) return false;
    // A range at least as narrow as the outer one lies inside it exactly when its own address does.
    const list = new BlockList();
    list.addSubnet(outer.address, outer.prefix, outer.family);
    return list.check(inner.address, inner.family);
  });
}

function parseRange(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText] = entry.split('/');
  const version = isIP(address);
  if (version === 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const prefix = prefixText === undefined ? (version === 4 ? 32 : 128) : Number(prefixText);
  return { address, prefix, family };
}
