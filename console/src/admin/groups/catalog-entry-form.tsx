import { Button, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { catalogFormValuesOf, readCatalogForm, type CatalogFormField, type CatalogFormValues } from './catalog-form-values';
import { groupsQueryKeys } from './groups-query-keys';
import { catalogModelKinds, type CatalogEntry, type CatalogFields, type CatalogModelKind } from './groups-types';
import { useAdminWrite } from './use-admin-write';

/** Adds or changes a catalog entry's common fields: owner, kind, context window, output limit, default prices. */
export function CatalogEntryForm({ entry, onDone }: { entry?: CatalogEntry; onDone: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CatalogFormValues>(catalogFormValuesOf(entry?.modelId ?? '', entry?.fields ?? {}));
  const [errors, setErrors] = useState<Partial<Record<CatalogFormField, true>>>({});
  const save = useAdminWrite({
    write: ({ modelId, fields }: { modelId: string; fields: CatalogFields }) => requestApi('PUT', `/catalog/${encodeURIComponent(modelId)}`, fields),
    success: (_answer, { modelId }) => t('groups.catalog.saved', { model: modelId }),
    refresh: [groupsQueryKeys.catalogEntries, groupsQueryKeys.prices],
    onDone,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = readCatalogForm(values, entry?.fields);
    setErrors('errors' in read ? read.errors : {});
    if ('fields' in read) save.mutate({ modelId: values.modelId.trim(), fields: read.fields });
  }

  const set = (name: keyof CatalogFormValues) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [name]: value }));
  };
  const errorOf = (name: CatalogFormField, message: string) => (errors[name] ? message : undefined);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('groups.catalog.fields.modelId')} required disabled={entry !== undefined} value={values.modelId} onChange={set('modelId')} error={errorOf('modelId', t('groups.prices.modelRequired'))} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label={t('groups.catalog.fields.ownedBy')} description={t('groups.catalog.newModelHint')} value={values.ownedBy} onChange={set('ownedBy')} />
          <Select
            label={t('groups.catalog.fields.kind')}
            clearable
            comboboxProps={{ withinPortal: true }}
            data={catalogModelKinds.map((kind) => ({ value: kind, label: t(`groups.catalog.kinds.${kind}`) }))}
            value={values.kind === '' ? null : values.kind}
            onChange={(kind) => setValues((current) => ({ ...current, kind: (kind ?? '') as CatalogModelKind | '' }))}
          />
          <TextInput label={t('groups.catalog.fields.contextWindow')} inputMode="numeric" value={values.contextWindow} onChange={set('contextWindow')} error={errorOf('contextWindow', t('groups.catalog.invalidCount'))} />
          <TextInput label={t('groups.catalog.fields.maxOutputTokens')} inputMode="numeric" value={values.maxOutputTokens} onChange={set('maxOutputTokens')} error={errorOf('maxOutputTokens', t('groups.catalog.invalidCount'))} />
          <TextInput label={t('groups.catalog.fields.input')} inputMode="decimal" value={values.input} onChange={set('input')} error={errorOf('input', t('groups.prices.invalidAmount'))} />
          <TextInput label={t('groups.catalog.fields.output')} inputMode="decimal" value={values.output} onChange={set('output')} error={errorOf('output', t('groups.prices.invalidAmount'))} />
        </SimpleGrid>
        <Button type="submit" loading={save.isPending}>{t('groups.save')}</Button>
      </Stack>
    </form>
  );
}
