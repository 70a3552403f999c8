import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RedemptionCodeStatus } from './redemption-codes-types';

/** The badge color of a code status. */
export function redemptionCodeStatusColor(status: RedemptionCodeStatus): string {
  switch (status) {
    case 'active':
      return 'teal';
    case 'redeemed':
      return 'blue';
    case 'disabled':
      return 'red';
    case 'expired':
      return 'gray';
    default: {
      const unknown: never = status;
      return String(unknown);
    }
  }
}

/** A code's status as a colored badge. */
export function RedemptionCodeStatusBadge({ status }: { status: RedemptionCodeStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={redemptionCodeStatusColor(status)} variant="light" style={{ minWidth: 'max-content' }}>
      {t(`redemptionCodes.status.${status}`)}
    </Badge>
  );
}
