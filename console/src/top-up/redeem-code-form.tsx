import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/api-error';
import { requestApi } from '../api/request-api';
import { currentSessionQueryKey } from '../api/use-current-session';
import { formatMicroUnits } from '../format/format-micro-units';
import type { RedeemAnswer } from './top-up-types';
import { ledgerQueryKey } from './use-order-polling';

/** Redeems a code (POST /api/redeem): the amount credited and the new balance, or the gateway's refusal (429 lockout included). */
export function RedeemCodeForm() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const redeem = useMutation({
    mutationFn: (typed: string) => requestApi<RedeemAnswer>('POST', '/redeem', { code: typed }),
    onSuccess: (answer) => {
      setCode('');
      notifications.show({ color: 'teal', message: t('topUp.redeem.credited', { amount: formatMicroUnits(answer.amount, i18n.language) }) });
      void queryClient.invalidateQueries({ queryKey: currentSessionQueryKey });
      void queryClient.invalidateQueries({ queryKey: ledgerQueryKey });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') return;
    redeem.mutate(code.trim());
  }

  const lockedOut = redeem.error instanceof ApiError && redeem.error.status === 429;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('topUp.redeem.code')} placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX" autoComplete="off" spellCheck={false} value={code} onChange={(event) => setCode(event.currentTarget.value)} />
        {redeem.isSuccess && (
          <Alert color="teal" data-testid="redeem-result">
            {t('topUp.redeem.result', { amount: formatMicroUnits(redeem.data.amount, i18n.language), balance: formatMicroUnits(redeem.data.balance, i18n.language) })}
          </Alert>
        )}
        {redeem.isError && (
          <Alert color={lockedOut ? 'orange' : 'red'} role="alert" data-testid="redeem-error" title={lockedOut ? t('topUp.redeem.lockedOut') : undefined}>
            {redeem.error.message}
          </Alert>
        )}
        <Button type="submit" variant="light" loading={redeem.isPending} disabled={code.trim() === ''}>{t('topUp.redeem.submit')}</Button>
      </Stack>
    </form>
  );
}
