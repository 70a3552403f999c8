import { Alert, Button, Group, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { formatDateTime } from '../format/format-date-time';
import { editKeyRequest, initialEditValues, validateEditValues, type EditExpiryChoice, type EditKeyRequest, type EditKeyValues } from './edit-key-values';
import { expiryPresetDays } from './expiry-presets';

/** The edit-key form: name, expiry (keep, never, a preset or a date), spending cap and allowed IPs; PATCH /api/keys/:id. */
export function EditKeyForm({ apiKey, onSaved, onCancel }: { apiKey: ApiKey; onSaved: (key: ApiKey) => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<EditKeyValues>(() => initialEditValues(apiKey));
  const errors = validateEditValues(values, Date.now());
  const set = <Field extends keyof EditKeyValues>(field: Field, value: EditKeyValues[Field]) => setValues((current) => ({ ...current, [field]: value }));

  const save = useMutation({
    mutationFn: (request: EditKeyRequest) => requestApi<ApiKey>('PATCH', `/keys/${encodeURIComponent(apiKey.id)}`, request),
    onSuccess: (saved) => {
      notifications.show({ color: 'teal', message: t('keys.edit.saved', { name: saved.name }) });
      onSaved(saved);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const request = editKeyRequest(values, Date.now());
    if (request) save.mutate(request);
  }

  const expiryOptions = [
    ...(apiKey.expiresAt === null ? [] : [{ value: 'keep', label: t('keys.edit.expiryKeep', { date: formatDateTime(apiKey.expiresAt, i18n.language) }) }]),
    { value: 'never', label: t('keys.form.expiryNever') },
    ...expiryPresetDays.map((days) => ({ value: String(days), label: t('keys.form.expiryDays', { count: days }) })),
    { value: 'date', label: t('keys.edit.expiryDate') },
  ];
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('keys.form.name')} value={values.name} error={errors.name && t(`keys.edit.${errors.name}`)} onChange={(event) => set('name', event.currentTarget.value)} />
        <Select
          label={t('keys.form.expiry')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data={expiryOptions}
          value={values.expiry}
          onChange={(value) => set('expiry', (value ?? 'never') as EditExpiryChoice)}
        />
        {values.expiry === 'date' && (
          <TextInput
            type="date"
            label={t('keys.edit.expiryDateLabel')}
            description={t('keys.edit.expiryDateHint')}
            value={values.expiryDate}
            error={errors.expiryDate && t(`keys.edit.${errors.expiryDate}`)}
            onChange={(event) => set('expiryDate', event.currentTarget.value)}
          />
        )}
        <TextInput
          label={t('keys.form.spendingCap')}
          description={t('keys.form.spendingCapHint')}
          inputMode="decimal"
          value={values.spendingCap}
          error={errors.spendingCap && t(`keys.form.${errors.spendingCap}`)}
          onChange={(event) => set('spendingCap', event.currentTarget.value)}
        />
        <Textarea
          label={t('keys.edit.allowedIps')}
          description={t('keys.edit.allowedIpsHint')}
          placeholder={'203.0.113.7\n10.0.0.0/8'}
          rows={3}
          value={values.allowedIps}
          onChange={(event) => set('allowedIps', event.currentTarget.value)}
        />
        {save.isError && <Alert color="red" role="alert">{save.error.message}</Alert>}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>{t('keys.cancel')}</Button>
          <Button type="submit" loading={save.isPending} disabled={Object.keys(errors).length > 0}>{t('keys.edit.submit')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
