import { Alert, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreatedApiKey, GrantedGroup } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { formatPriceRatio } from '../format/format-date-time';
import { parseAmountToMicroUnits } from '../format/parse-amount';
import { expiresAtFor, expiryPresetDays, type ExpiryChoice } from './expiry-presets';

/** How many model names the group description lists before "…". */
const shownModelCount = 8;

/** The create-key form: a granted group (required), name, expiry preset and spending cap. */
export function CreateKeyForm({ groups, onCreated }: { groups: GrantedGroup[]; onCreated: (key: CreatedApiKey, group: GrantedGroup) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [groupId, setGroupId] = useState<string | null>(groups.length === 1 ? (groups[0]?.id ?? null) : null);
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [spendingCap, setSpendingCap] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const group = groups.find((candidate) => candidate.id === groupId);
  const capMicroUnits = spendingCap.trim() === '' ? null : parseAmountToMicroUnits(spendingCap);
  const capError = spendingCap.trim() !== '' && capMicroUnits === null ? t('keys.form.spendingCapInvalid') : undefined;
  const groupError = submitted && !group ? t('keys.form.groupRequired') : undefined;

  const create = useMutation({
    mutationFn: (chosen: GrantedGroup) =>
      requestApi<CreatedApiKey>('POST', '/keys', {
        group: chosen.id,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(expiry === 'never' ? {} : { expiresAt: expiresAtFor(expiry, Date.now()) }),
        ...(capMicroUnits === null ? {} : { spendingCap: capMicroUnits }),
      }),
    onSuccess: (created, chosen) => onCreated(created, chosen),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!group || capError) return;
    create.mutate(group);
  }

  if (groups.length === 0) return <Alert color="yellow">{t('keys.form.noGroups')}</Alert>;
  const modelNames = group?.models.map((model) => model.id) ?? [];
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('keys.form.name')} placeholder={t('keys.form.namePlaceholder')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <Select
          label={t('keys.form.group')}
          placeholder={t('keys.form.groupPlaceholder')}
          required
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data={groups.map((candidate) => ({
            value: candidate.id,
            label: t('keys.form.groupOption', { name: candidate.name, ratio: formatPriceRatio(candidate.priceRatioMillionths), count: candidate.models.length }),
          }))}
          value={groupId}
          onChange={setGroupId}
          error={groupError}
        />
        {group && (
          <Text size="xs" c="dimmed">
            {group.description ? `${group.description} · ` : ''}
            {t('keys.form.groupModels', { models: modelNames.slice(0, shownModelCount).join(', ') + (modelNames.length > shownModelCount ? ', …' : '') })}
          </Text>
        )}
        <Select
          label={t('keys.form.expiry')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data={[{ value: 'never', label: t('keys.form.expiryNever') }, ...expiryPresetDays.map((days) => ({ value: String(days), label: t('keys.form.expiryDays', { count: days }) }))]}
          value={expiry}
          onChange={(value) => setExpiry((value ?? 'never') as ExpiryChoice)}
        />
        <TextInput
          label={t('keys.form.spendingCap')}
          description={t('keys.form.spendingCapHint')}
          inputMode="decimal"
          value={spendingCap}
          error={capError}
          onChange={(event) => setSpendingCap(event.currentTarget.value)}
        />
        {create.isError && <Alert color="red" role="alert">{create.error.message}</Alert>}
        <Button type="submit" loading={create.isPending}>{t('keys.form.submit')}</Button>
      </Stack>
    </form>
  );
}
