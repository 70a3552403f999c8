import { Alert, Button, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { parseAmountToMicroUnits } from '../../format/parse-amount';
import { expiresAtFor, expiryPresetDays, type ExpiryChoice } from '../../keys/expiry-presets';
import type { CreatedRedemptionBatch } from './redemption-codes-types';

/** Most codes one batch may hold (the gateway's limit). */
export const maximumBatchSize = 1_000;

/** The longest note the gateway keeps. */
const maximumNoteLength = 500;

/** Why a batch size cannot be sent, or null when it can. */
export function batchSizeProblem(count: number | string): 'required' | 'range' | null {
  if (count === '') return 'required';
  const value = Number(count);
  return Number.isInteger(value) && value >= 1 && value <= maximumBatchSize ? null : 'range';
}

/** The new-batch form: amount per code as a decimal, how many codes (1-1000), an optional expiry and note. */
export function CreateBatchForm({ onCreated }: { onCreated: (batch: CreatedRedemptionBatch) => void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [count, setCount] = useState<number | string>(10);
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [note, setNote] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const amountMicroUnits = parseAmountToMicroUnits(amount);
  const amountError =
    amount.trim() === '' ? (submitted ? t('redemptionCodes.form.amountRequired') : undefined) : amountMicroUnits === null || amountMicroUnits <= 0 ? t('redemptionCodes.form.amountInvalid') : undefined;
  const sizeProblem = batchSizeProblem(count);
  const countError = sizeProblem === 'range' || (submitted && sizeProblem === 'required') ? t('redemptionCodes.form.countInvalid', { maximum: maximumBatchSize }) : undefined;

  const create = useMutation({
    mutationFn: (amountToSend: number) =>
      requestApi<CreatedRedemptionBatch>('POST', '/admin/redemption-codes', {
        amountMicroUnits: amountToSend,
        count: Number(count),
        ...(expiry === 'never' ? {} : { expiresAt: expiresAtFor(expiry, Date.now()) }),
        ...(note.trim() ? { note: note.trim() } : {}),
      }),
    onSuccess: onCreated,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (amountMicroUnits === null || amountMicroUnits <= 0 || sizeProblem !== null) return;
    create.mutate(amountMicroUnits);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('redemptionCodes.form.amount')}
          description={t('redemptionCodes.form.amountHint')}
          placeholder="10.00"
          inputMode="decimal"
          required
          value={amount}
          error={amountError}
          onChange={(event) => setAmount(event.currentTarget.value)}
        />
        <NumberInput
          label={t('redemptionCodes.form.count')}
          description={t('redemptionCodes.form.countHint', { maximum: maximumBatchSize })}
          required
          allowDecimal={false}
          allowNegative={false}
          min={1}
          max={maximumBatchSize}
          value={count}
          error={countError}
          onChange={setCount}
        />
        <Select
          label={t('redemptionCodes.form.expiry')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data={[{ value: 'never', label: t('redemptionCodes.form.expiryNever') }, ...expiryPresetDays.map((days) => ({ value: String(days), label: t('redemptionCodes.form.expiryDays', { count: days }) }))]}
          value={expiry}
          onChange={(value) => setExpiry((value ?? 'never') as ExpiryChoice)}
        />
        <TextInput label={t('redemptionCodes.form.note')} placeholder={t('redemptionCodes.form.notePlaceholder')} maxLength={maximumNoteLength} value={note} onChange={(event) => setNote(event.currentTarget.value)} />
        {create.isError && <Alert color="red" role="alert">{create.error.message}</Alert>}
        <Button type="submit" loading={create.isPending}>{t('redemptionCodes.form.submit')}</Button>
      </Stack>
    </form>
  );
}
