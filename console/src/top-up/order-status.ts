import type { TopUpOrderStatus } from './top-up-types';

/** Whether an order will not change by itself any more (the polling stops there). */
export function isFinalStatus(status: TopUpOrderStatus): boolean {
  switch (status) {
    case 'pending':
      return false;
    case 'paid':
    case 'failed':
    case 'expired':
    case 'partially-refunded':
    case 'refunded':
    case 'disputed':
      return true;
    default: {
      const unexpected: never = status;
      return unexpected;
    }
  }
}

/** The badge colour of an order's status. */
export function orderStatusColor(status: TopUpOrderStatus): string {
  switch (status) {
    case 'pending':
      return 'blue';
    case 'paid':
      return 'teal';
    case 'failed':
      return 'red';
    case 'expired':
      return 'gray';
    case 'partially-refunded':
    case 'refunded':
      return 'violet';
    case 'disputed':
      return 'orange';
    default: {
      const unexpected: never = status;
      return unexpected;
    }
  }
}
