import { Badge, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataList } from '../../api/api-types';
import { requestApi } from '../../api/request-api';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { formatRatio } from './format-ratio';
import { GroupForm } from './group-form';
import { groupsQueryKeys } from './groups-query-keys';
import type { ModelGroup } from './groups-types';
import { PriceRatioForm } from './price-ratio-form';

/** What a modal of the section is doing. */
type GroupDialog = { kind: 'create' } | { kind: 'edit'; group: ModelGroup } | { kind: 'ratio'; group: ModelGroup } | null;

/** The model groups: name, description, models, price ratio; create a group, edit one, change its ratio. */
export function ModelGroupsSection() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<GroupDialog>(null);
  const groups = useQuery({ queryKey: groupsQueryKeys.groups, queryFn: () => requestApi<DataList<ModelGroup>>('GET', '/groups') });
  const close = () => setDialog(null);

  let content;
  if (groups.isPending) content = <LoadingState />;
  else if (groups.isError) content = <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />;
  else if (groups.data.data.length === 0) content = <EmptyState title={t('groups.empty')} hint={t('groups.emptyHint')} />;
  else {
    content = (
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {(['name', 'description', 'models', 'ratio', 'actions'] as const).map((column) => (
                <Table.Th key={column}>{t(`groups.columns.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.data.data.map((group) => (
              <Table.Tr key={group.id} data-testid={`group-row-${group.name}`}>
                <Table.Td fw={600}>{group.name}</Table.Td>
                <Table.Td><Text size="sm" c="dimmed">{group.description || '—'}</Text></Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {group.models.map((model) => (
                      <Badge key={model} variant="light" color="gray" tt="none">{model === '*' ? t('groups.everyModel') : model}</Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td><Text ff="monospace" size="sm">{formatRatio(group.priceRatioMillionths)}</Text></Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" aria-label={t('groups.ratio.action', { name: group.name })} onClick={() => setDialog({ kind: 'ratio', group })}>
                      {t('groups.ratio.button')}
                    </Button>
                    <Button size="xs" variant="light" aria-label={t('groups.form.editAction', { name: group.name })} onClick={() => setDialog({ kind: 'edit', group })}>
                      {t('groups.edit')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{t('groups.groupsTitle')}</Title>
        <Button size="sm" leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'create' })}>{t('groups.form.createTitle')}</Button>
      </Group>
      {content}
      <Modal opened={dialog?.kind === 'ratio'} onClose={close} title={dialog?.kind === 'ratio' ? t('groups.ratio.title', { name: dialog.group.name }) : ''}>
        {dialog?.kind === 'ratio' && <PriceRatioForm group={dialog.group} onDone={close} />}
      </Modal>
      <Modal opened={dialog?.kind === 'create' || dialog?.kind === 'edit'} onClose={close} size="lg" title={dialog?.kind === 'edit' ? t('groups.form.editTitle', { name: dialog.group.name }) : t('groups.form.createTitle')}>
        {dialog?.kind === 'create' && <GroupForm onDone={close} />}
        {dialog?.kind === 'edit' && <GroupForm group={dialog.group} onDone={close} />}
      </Modal>
    </Stack>
  );
}
