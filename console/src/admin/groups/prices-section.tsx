import { Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataList } from '../../api/api-types';
import { requestApi } from '../../api/request-api';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { formatMicroUnits } from '../../format/format-micro-units';
import { groupsQueryKeys } from './groups-query-keys';
import type { ModelPrice } from './groups-types';
import { PriceOverrideForm } from './price-override-form';
import { useAdminWrite } from './use-admin-write';

/** How many matching prices the table shows at once. */
const shownPriceCount = 25;

/** The prices in force (catalog prices overlaid with overrides), searchable; set a model's price or reset it. */
export function PricesSection() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ price?: ModelPrice } | null>(null);
  const prices = useQuery({ queryKey: groupsQueryKeys.prices, queryFn: () => requestApi<DataList<ModelPrice>>('GET', '/prices') });
  const reset = useAdminWrite({
    write: (modelId: string) => requestApi('DELETE', `/prices/${encodeURIComponent(modelId)}`),
    success: (_answer, modelId) => t('groups.prices.reset', { model: modelId }),
    refresh: [groupsQueryKeys.prices],
  });

  function confirmReset(modelId: string) {
    modals.openConfirmModal({
      title: t('groups.prices.resetTitle', { model: modelId }),
      children: <Text size="sm">{t('groups.prices.resetBody')}</Text>,
      labels: { confirm: t('groups.prices.resetConfirm'), cancel: t('groups.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => reset.mutate(modelId),
    });
  }

  const money = (amount: number) => formatMicroUnits(amount, i18n.language);
  let content;
  if (prices.isPending) content = <LoadingState />;
  else if (prices.isError) content = <ErrorState error={prices.error} onRetry={() => void prices.refetch()} />;
  else {
    const needle = search.trim().toLowerCase();
    const matching = prices.data.data.filter((price) => price.modelId.toLowerCase().includes(needle));
    if (matching.length === 0) content = <EmptyState title={t('groups.prices.empty')} />;
    else {
      content = (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  {(['model', 'input', 'cachedInput', 'cacheWrite', 'output', 'actions'] as const).map((column) => (
                    <Table.Th key={column}>{t(`groups.prices.columns.${column}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {matching.slice(0, shownPriceCount).map((price) => (
                  <Table.Tr key={price.modelId} data-testid={`price-row-${price.modelId}`}>
                    <Table.Td><Text ff="monospace" size="sm">{price.modelId}</Text></Table.Td>
                    <Table.Td>{money(price.inputPerMillion)}</Table.Td>
                    <Table.Td>{money(price.cachedInputPerMillion)}</Table.Td>
                    <Table.Td>{money(price.cacheWritePerMillion)}</Table.Td>
                    <Table.Td>{money(price.outputPerMillion)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="light" aria-label={t('groups.prices.setFor', { model: price.modelId })} onClick={() => setEditing({ price })}>{t('groups.prices.set')}</Button>
                        <Button size="xs" variant="light" color="red" aria-label={t('groups.prices.resetFor', { model: price.modelId })} loading={reset.isPending && reset.variables === price.modelId} onClick={() => confirmReset(price.modelId)}>
                          {t('groups.prices.resetButton')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {matching.length > shownPriceCount && <Text size="xs" c="dimmed">{t('groups.prices.more', { shown: shownPriceCount, count: matching.length })}</Text>}
        </Stack>
      );
    }
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{t('groups.prices.title')}</Title>
        <Button size="sm" leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>{t('groups.prices.add')}</Button>
      </Group>
      <Text size="sm" c="dimmed">{t('groups.prices.subtitle')}</Text>
      <TextInput label={t('groups.prices.search')} leftSection={<IconSearch size={16} />} value={search} onChange={(event) => setSearch(event.currentTarget.value)} maw={360} />
      {content}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} size="lg" title={editing?.price ? t('groups.prices.editTitle', { model: editing.price.modelId }) : t('groups.prices.add')}>
        {editing && <PriceOverrideForm price={editing.price} onDone={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}
