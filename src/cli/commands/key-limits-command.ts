import type { Command } from 'commander';
import type { ApiKeyChanges } from '../../accounts/change-api-key-limits.js';
import { accountActorOfCommandLine } from '../../accounts/account-actor.js';
import { isAddressOrRange, maxAllowedIps } from '../../accounts/is-address-or-range.js';
import { parseCurrencyAmount } from '../../billing/money.js';
import { parseList, printResult } from '../open-cli-store.js';
import { createCliApiKeyService } from '../create-cli-api-key-service.js';
import { operatingSystemUserName, withCliServices } from '../open-cli-services.js';
import { presentCliKey } from './present-cli-key.js';
import { requireCliKey } from './require-cli-key.js';

interface KeyLimitsOptions {
  name?: string;
  expiresAt?: string;
  expiresInDays?: string;
  clearExpiry?: boolean;
  spendingCap?: string;
  clearSpendingCap?: boolean;
  allowedIps?: string;
  clearAllowedIps?: boolean;
  requestsPerMinute?: string;
  tokensPerMinute?: string;
  maxConcurrentRequests?: string;
  json?: boolean;
}

const requestLimitHelp = "a whole number, 0 for unlimited, or 'default' for the operator's default";

/**
 * `gateway key limits <id> [...]`: sets or clears a key's expiry, spending cap, address allow-list and request limits
 * as an administrator, through the same function PATCH /api/keys/:id uses; the values set bind the key's owner.
 */
export function registerKeyLimitsCommand(key: Command): void {
  key
    .command('limits <id>')
    .description("set or clear a key's expiry, spending cap, IP allow-list and request limits (binds its owner)")
    .option('--name <name>', 'rename the key')
    .option('--expires-at <date>', 'an ISO 8601 date and time, e.g. 2027-01-31T00:00:00Z')
    .option('--expires-in-days <days>', 'the key stops working after this many days from now')
    .option('--clear-expiry', 'the key never expires')
    .option('--spending-cap <amount>', 'most the key may spend, in currency units (e.g. 25.50)')
    .option('--clear-spending-cap', 'no spending cap')
    .option('--allowed-ips <list>', `comma-separated IP addresses or CIDR ranges (at most ${maxAllowedIps})`)
    .option('--clear-allowed-ips', 'any address may use the key')
    .option('--requests-per-minute <limit>', requestLimitHelp)
    .option('--tokens-per-minute <limit>', requestLimitHelp)
    .option('--max-concurrent-requests <limit>', requestLimitHelp)
    .option('--json', 'print the changed key as JSON')
    .action((id: string, options: KeyLimitsOptions) => changeKeyLimits(id, options));
}

async function changeKeyLimits(id: string, options: KeyLimitsOptions): Promise<void> {
  const changes = readKeyChanges(options, Date.now());
  if (Object.keys(changes).length === 0) throw new Error('Give at least one change; see gateway key limits --help');
  await withCliServices(async (services) => {
    const found = await requireCliKey(services, id);
    // The same service as PATCH /api/keys/:id; it audits the change as `key.update` naming the OS user.
    await createCliApiKeyService(services).update(
      accountActorOfCommandLine(operatingSystemUserName()),
      found.id,
      changes,
    );
    const shown = await presentCliKey(services, await requireCliKey(services, id));
    printResult(options.json, shown, `Key ${id} changed: ${JSON.stringify(changes)}.`);
  });
}

/** The options as one key edit; throws a one-line error for a bad or contradictory value. */
export function readKeyChanges(options: KeyLimitsOptions, now: number): ApiKeyChanges {
  const changes: ApiKeyChanges = {};
  if (options.name !== undefined) {
    if (options.name.length > 100) throw new Error('--name must be at most 100 characters');
    changes.name = options.name;
  }
  const expiryOptions = [options.expiresAt, options.expiresInDays, options.clearExpiry].filter((v) => v !== undefined);
  if (expiryOptions.length > 1) throw new Error('Give only one of --expires-at, --expires-in-days, --clear-expiry');
  if (options.clearExpiry) changes.expiresAt = null;
  if (options.expiresAt !== undefined) {
    const time = Date.parse(options.expiresAt);
    if (!Number.isFinite(time) || time <= now) throw new Error('--expires-at must be a future ISO 8601 date');
    changes.expiresAt = time;
  }
  if (options.expiresInDays !== undefined) {
    const days = Number(options.expiresInDays);
    if (!(days > 0)) throw new Error('--expires-in-days must be a positive number');
    changes.expiresAt = now + Math.round(days * 86_400_000);
  }
  if (options.spendingCap !== undefined && options.clearSpendingCap)
    throw new Error('Give only one of --spending-cap and --clear-spending-cap');
  if (options.clearSpendingCap) changes.spendingCap = null;
  if (options.spendingCap !== undefined) {
    const cap = parseCurrencyAmount(options.spendingCap);
    if (cap < 0) throw new Error('--spending-cap must not be negative');
    changes.spendingCap = cap;
  }
  if (options.allowedIps !== undefined && options.clearAllowedIps)
    throw new Error('Give only one of --allowed-ips and --clear-allowed-ips');
  if (options.clearAllowedIps) changes.allowedIps = [];
  if (options.allowedIps !== undefined) {
    const addresses = parseList(options.allowedIps);
    const bad = addresses.find((address) => !isAddressOrRange(address));
    if (bad !== undefined) throw new Error(`--allowed-ips: ${bad} is not an IP address or a CIDR range`);
    if (addresses.length === 0 || addresses.length > maxAllowedIps)
      throw new Error(`--allowed-ips needs 1 to ${maxAllowedIps} addresses; use --clear-allowed-ips for any address`);
    changes.allowedIps = addresses;
  }
  const limits: NonNullable<ApiKeyChanges['limits']> = {};
  if (options.requestsPerMinute !== undefined)
    limits.requestsPerMinute = parseRequestLimit(options.requestsPerMinute, '--requests-per-minute');
  if (options.tokensPerMinute !== undefined)
    limits.tokensPerMinute = parseRequestLimit(options.tokensPerMinute, '--tokens-per-minute');
  if (options.maxConcurrentRequests !== undefined)
    limits.maxConcurrentRequests = parseRequestLimit(options.maxConcurrentRequests, '--max-concurrent-requests');
  if (Object.keys(limits).length > 0) changes.limits = limits;
  return changes;
}

function parseRequestLimit(value: string, optionName: string): number | null {
  if (value === 'default') return null;
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new Error(`${optionName} must be a whole number of 0 or more, or 'default'`);
  return limit;
}
