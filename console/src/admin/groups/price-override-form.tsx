import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { groupsQueryKeys } from './groups-query-keys';
import type { ModelPrice } from './groups-types';
import { microUnitsToDecimal, readPriceForm, type PriceFormErrors, type PriceFormValues } from './price-form-values';
import { useAdminWrite } from './use-admin-write';

/** Sets a model's price (an override of the catalog price): per-1M prices typed as decimals, sent as micro-units. */
export function PriceOverrideForm({ price, onDone }: { price?: ModelPrice; onDone: () => void }) {
  const { t } = useTranslation();
  const [modelId, setModelId] = useState(price?.modelId ?? '');
  const [values, setValues] = useState<PriceFormValues>({
    input: price ? microUnitsToDecimal(price.inputPerMillion) : '',
    output: price ? microUnitsToDecimal(price.outputPerMillion) : '',
    cachedInput: price ? microUnitsToDecimal(price.cachedInputPerMillion) : '',
    cacheWrite: price ? microUnitsToDecimal(price.cacheWritePerMillion) : '',
    cacheWriteOneHour: price?.cacheWriteOneHourPerMillion === undefined ? '' : microUnitsToDecimal(price.cacheWriteOneHourPerMillion),
  });
  const [errors, setErrors] = useState<PriceFormErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const modelError = submitted && modelId.trim() === '' ? t('groups.prices.modelRequired') : undefined;
  const save = useAdminWrite({
    write: ({ model, body }: { model: string; body: object }) => requestApi('PUT', `/prices/${encodeURIComponent(model)}`, body),
    success: (_answer, { model }) => t('groups.prices.saved', { model }),
    refresh: [groupsQueryKeys.prices],
    onDone,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const read = readPriceForm(values);
    setErrors('errors' in read ? read.errors : {});
    if ('errors' in read || modelId.trim() === '') return;
    save.mutate({ model: modelId.trim(), body: read.body });
  }

  const field = (name: keyof PriceFormValues, required: boolean) => (
    <TextInput
      label={t(`groups.prices.fields.${name}`)}
      required={required}
      inputMode="decimal"
      value={values[name] ?? ''}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setValues((current) => ({ ...current, [name]: value }));
      }}
      error={errors[name] ? t('groups.prices.invalidAmount') : undefined}
    />
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('groups.prices.model')} required value={modelId} disabled={price !== undefined} onChange={(event) => setModelId(event.currentTarget.value)} error={modelError} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {field('input', true)}
          {field('output', true)}
          {field('cachedInput', false)}
          {field('cacheWrite', false)}
          {field('cacheWriteOneHour', false)}
        </SimpleGrid>
        <Button type="submit" loading={save.isPending}>{t('groups.save')}</Button>
      </Stack>
    </form>
  );
}
