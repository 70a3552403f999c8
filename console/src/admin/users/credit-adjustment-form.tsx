import { Button, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { formatMicroUnits } from '../../format/format-micro-units';
import { parseSignedAmountToMicroUnits } from './parse-signed-amount';
import { usersQueryKey, type AdminUser, type CreditResult } from './users-types';

/** Longest reason the gateway keeps. */
const reasonMaxLength = 500;

/** A balance adjustment: a signed amount (checked as you type) and a required reason, sent as micro-units. */
export function CreditAdjustmentForm({ user }: { user: AdminUser }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const microUnits = parseSignedAmountToMicroUnits(amount);
  const amountError = (submitted || amount.trim() !== '') && microUnits === null ? t('users.credit.amountInvalid') : undefined;
  const reasonError = submitted && reason.trim() === '' ? t('users.credit.reasonRequired') : undefined;

  const adjust = useMutation({
    mutationFn: (change: { amountMicroUnits: number; description: string }) => requestApi<CreditResult>('POST', `/users/${encodeURIComponent(user.id)}/credits`, { kind: 'adjustment', ...change }),
    onSuccess: (result) => {
      setAmount('');
      setReason('');
      setSubmitted(false);
      notifications.show({ color: 'teal', message: t('users.credit.done', { balance: formatMicroUnits(result.balance, i18n.language) }) });
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (microUnits === null || reason.trim() === '') return;
    adjust.mutate({ amountMicroUnits: microUnits, description: reason.trim() });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('users.credit.amount')}
          description={t('users.credit.amountHint')}
          inputMode="decimal"
          value={amount}
          error={amountError}
          onChange={(event) => setAmount(event.currentTarget.value)}
        />
        <TextInput label={t('users.credit.reason')} required maxLength={reasonMaxLength} value={reason} error={reasonError} onChange={(event) => setReason(event.currentTarget.value)} />
        <Button type="submit" loading={adjust.isPending} style={{ alignSelf: 'flex-start' }}>{t('users.credit.submit')}</Button>
      </Stack>
    </form>
  );
}
