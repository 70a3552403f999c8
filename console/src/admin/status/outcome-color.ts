import type { WebhookOutcome } from './status-types';

/** The badge colour of a webhook outcome: green when money moved, grey when nothing had to, red when something is wrong. */
export function outcomeColor(outcome: WebhookOutcome): string {
  switch (outcome) {
    case 'credited':
      return 'teal';
    case 'unchanged':
    case 'ignored':
    case 'pending':
      return 'gray';
    case 'failed':
    case 'expired':
      return 'yellow';
    case 'amount-mismatch':
    case 'unknown-order':
    case 'rejected':
      return 'red';
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}
