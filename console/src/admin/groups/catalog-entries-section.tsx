import { Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataList } from '../../api/api-types';
import { requestApi } from '../../api/request-api';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { formatDateTime } from '../../format/format-date-time';
import { formatMicroUnits } from '../../format/format-micro-units';
import { CatalogEntryForm } from './catalog-entry-form';
import { groupsQueryKeys } from './groups-query-keys';
import type { CatalogEntry } from './groups-types';
import { useAdminWrite } from './use-admin-write';

/** The catalog entries admins stored: add one, change one's common fields, delete one (back to the built-in entry). */
export function CatalogEntriesSection() {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState<{ entry?: CatalogEntry } | null>(null);
  const entries = useQuery({ queryKey: groupsQueryKeys.catalogEntries, queryFn: () => requestApi<DataList<CatalogEntry>>('GET', '/catalog/entries') });
  const remove = useAdminWrite({
    write: (modelId: string) => requestApi('DELETE', `/catalog/${encodeURIComponent(modelId)}`),
    success: (_answer, modelId) => t('groups.catalog.deleted', { model: modelId }),
    refresh: [groupsQueryKeys.catalogEntries, groupsQueryKeys.prices],
  });

  function confirmDelete(modelId: string) {
    modals.openConfirmModal({
      title: t('groups.catalog.deleteTitle', { model: modelId }),
      children: <Text size="sm">{t('groups.catalog.deleteBody')}</Text>,
      labels: { confirm: t('groups.delete'), cancel: t('groups.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(modelId),
    });
  }

  const locale = i18n.language;
  let content;
  if (entries.isPending) content = <LoadingState />;
  else if (entries.isError) content = <ErrorState error={entries.error} onRetry={() => void entries.refetch()} />;
  else if (entries.data.data.length === 0) content = <EmptyState title={t('groups.catalog.empty')} hint={t('groups.catalog.emptyHint')} />;
  else {
    content = (
      <Table.ScrollContainer minWidth={820}>
        <Table striped highlightOnHover verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              {(['model', 'ownedBy', 'kind', 'contextWindow', 'maxOutputTokens', 'prices', 'updated', 'actions'] as const).map((column) => (
                <Table.Th key={column}>{t(`groups.catalog.columns.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.data.data.map((entry) => {
              const { fields } = entry;
              const prices = fields.defaultPrices;
              return (
                <Table.Tr key={entry.modelId} data-testid={`catalog-row-${entry.modelId}`}>
                  <Table.Td><Text ff="monospace" size="sm">{entry.modelId}</Text></Table.Td>
                  <Table.Td>{fields.ownedBy ?? '—'}</Table.Td>
                  <Table.Td>{fields.kind ? t(`groups.catalog.kinds.${fields.kind}`) : '—'}</Table.Td>
                  <Table.Td>{fields.contextWindow?.toLocaleString(locale) ?? '—'}</Table.Td>
                  <Table.Td>{fields.maxOutputTokens?.toLocaleString(locale) ?? '—'}</Table.Td>
                  <Table.Td>{prices ? `${formatMicroUnits(prices.inputPerMillion, locale)} / ${formatMicroUnits(prices.outputPerMillion, locale)}` : '—'}</Table.Td>
                  <Table.Td>{formatDateTime(entry.updatedAt, locale)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={t('groups.catalog.editFor', { model: entry.modelId })} onClick={() => setEditing({ entry })}>{t('groups.edit')}</Button>
                      <Button size="xs" variant="light" color="red" aria-label={t('groups.catalog.deleteFor', { model: entry.modelId })} loading={remove.isPending && remove.variables === entry.modelId} onClick={() => confirmDelete(entry.modelId)}>
                        {t('groups.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{t('groups.catalog.title')}</Title>
        <Button size="sm" leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>{t('groups.catalog.add')}</Button>
      </Group>
      <Text size="sm" c="dimmed">{t('groups.catalog.subtitle')}</Text>
      {content}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} size="lg" title={editing?.entry ? t('groups.catalog.editTitle', { model: editing.entry.modelId }) : t('groups.catalog.add')}>
        {editing && <CatalogEntryForm entry={editing.entry} onDone={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}
