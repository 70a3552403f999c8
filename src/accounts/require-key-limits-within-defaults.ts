import { GatewayError } from '../core/gateway-error.js';
import type { RequestLimits } from '../storage/billing-records.js';

const limitNames = ['requestsPerMinute', 'tokensPerMinute', 'maxConcurrentRequests'] as const satisfies ReadonlyArray<
  keyof RequestLimits
>;

/**
 * Throws 400 naming `limits.<name>` unless every limit a user sets on their own key stays within the operator's
 * default for keys: where the default is a number (> 0), a key may ask for at most that, and 0 (unlimited) is for
 * administrators only. null keeps the default; where the default is 0 (unlimited) anything goes.
 */
export function requireKeyLimitsWithinDefaults(limits: RequestLimits, defaults: RequestLimits): void {
  for (const name of limitNames) {
    const requested = limits[name];
    const ceiling = defaults[name] ?? 0;
    if (requested === null || ceiling <= 0) continue;
    if (requested === 0) {
      throw new GatewayError(
        'invalid_request_error',
        `limits.${name} 0 means unlimited, which only an administrator may set; the most you may set is ${ceiling}.`,
        { param: `limits.${name}` },
      );
    }
    if (requested > ceiling) {
      throw new GatewayError(
        'invalid_request_error',
        `limits.${name} may be at most ${ceiling}, the operator's default for keys.`,
        { param: `limits.${name}` },
      );
    }
  }
}
