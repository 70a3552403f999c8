import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OrderOutcome } from './order-outcome';
import { QrCodeImage } from './qr-code-image';
import { isFinalStatus } from './order-status';
import type { TopUpOrder } from './top-up-types';
import { useOrderPolling } from './use-order-polling';

/** An Alipay face-to-face order: the QR code to scan and the order's progress until it is paid, failed or expired. */
export function QrPaymentPanel({ order, qrCode, onDone }: { order: TopUpOrder; qrCode: string; onDone: () => void }) {
  const { t } = useTranslation();
  const polling = useOrderPolling(order.id);
  const current = polling.order.data ?? order;
  return (
    <Stack align="center" gap="md">
      {!isFinalStatus(current.status) && (
        <>
          <Text size="sm" ta="center">{t('topUp.qr.instructions', { method: t(`topUp.methods.${order.method}`), amount: `${order.amountPaid} ${order.currency.toUpperCase()}` })}</Text>
          <QrCodeImage content={qrCode} label={t('topUp.qr.imageLabel', { method: t(`topUp.methods.${order.method}`) })} />
        </>
      )}
      <div style={{ alignSelf: 'stretch' }}>
        <OrderOutcome polling={polling} />
      </div>
      <Button variant={isFinalStatus(current.status) ? 'filled' : 'default'} onClick={onDone}>
        {isFinalStatus(current.status) ? t('topUp.qr.done') : t('topUp.qr.close')}
      </Button>
    </Stack>
  );
}
