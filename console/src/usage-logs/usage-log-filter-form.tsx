import { Button, Group, NativeSelect, Paper, SimpleGrid, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultUsageLogFilters, statusClasses, timeRangePresets, type StatusClass, type TimeRangePreset, type UsageLogFilters } from './usage-log-filters';

/** A choice of a select: its value and label. */
export interface FilterOption {
  value: string;
  label: string;
}

/** The filters of a logs page: edited as a draft, applied with the Apply button; the user filter only when `users` is given. */
export function UsageLogFilterForm({ filters, onApply, keys, users }: { filters: UsageLogFilters; onApply: (filters: UsageLogFilters) => void; keys: FilterOption[]; users?: FilterOption[] }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(filters);
  useEffect(() => setDraft(filters), [filters]);
  const change = (name: keyof UsageLogFilters) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setDraft((previous) => ({ ...previous, [name]: value }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('usageLogs.filters.title')}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <NativeSelect
          label={t('usageLogs.filters.range')}
          value={draft.range}
          onChange={(event) => {
            const range = event.currentTarget.value as TimeRangePreset;
            setDraft((previous) => ({ ...previous, range }));
          }}
          data={timeRangePresets.map((range) => ({ value: range, label: t(`usageLogs.filters.ranges.${range}`) }))}
        />
        {draft.range === 'custom' && (
          <>
            <TextInput type="datetime-local" label={t('usageLogs.filters.from')} value={draft.from} onChange={change('from')} />
            <TextInput type="datetime-local" label={t('usageLogs.filters.to')} value={draft.to} onChange={change('to')} />
          </>
        )}
        <TextInput label={t('usageLogs.filters.model')} placeholder={t('usageLogs.filters.modelPlaceholder')} value={draft.model} onChange={change('model')} />
        <NativeSelect label={t('usageLogs.filters.key')} value={draft.keyId} onChange={change('keyId')} data={[{ value: '', label: t('usageLogs.filters.anyKey') }, ...keys]} />
        <NativeSelect
          label={t('usageLogs.filters.status')}
          value={draft.statusClass}
          onChange={(event) => {
            const statusClass = event.currentTarget.value as StatusClass | '';
            setDraft((previous) => ({ ...previous, statusClass }));
          }}
          data={[{ value: '', label: t('usageLogs.filters.anyStatus') }, ...statusClasses.map((statusClass) => ({ value: statusClass, label: t(`usageLogs.filters.statusClasses.${statusClass}`) }))]}
        />
        <TextInput label={t('usageLogs.filters.requestId')} placeholder={t('usageLogs.filters.requestIdPlaceholder')} value={draft.requestId} onChange={change('requestId')} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
        {users && <NativeSelect label={t('usageLogs.filters.user')} value={draft.userId} onChange={change('userId')} data={[{ value: '', label: t('usageLogs.filters.anyUser') }, ...users]} />}
      </SimpleGrid>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button variant="default" onClick={() => onApply(defaultUsageLogFilters)}>
          {t('usageLogs.filters.reset')}
        </Button>
        <Button type="submit">{t('usageLogs.filters.apply')}</Button>
      </Group>
    </Paper>
  );
}
