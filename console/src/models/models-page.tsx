import { Badge, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { myGroupsQueryOptions } from '../api/my-groups-query';
import { requestApi } from '../api/request-api';
import { PageHeader } from '../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { formatPriceRatio } from '../format/format-date-time';
import { filterGroups } from './filter-groups';
import { GroupModelsTable } from './group-models-table';
import type { PricedGroupList } from './models-types';

/** Models & prices: per granted group its price ratio and its models with prices after the ratio, searchable. */
export function ModelsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const groups = useQuery({ ...myGroupsQueryOptions, queryFn: () => requestApi<PricedGroupList>('GET', '/me/groups') });

  let content;
  if (groups.isPending) content = <LoadingState />;
  else if (groups.isError) content = <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />;
  else if (groups.data.data.length === 0) content = <EmptyState title={t('models.noGroups')} hint={t('models.noGroupsHint')} />;
  else {
    const shown = filterGroups(groups.data.data, search);
    content =
      shown.length === 0 ? (
        <EmptyState title={t('models.noMatch', { search: search.trim() })} />
      ) : (
        shown.map((group) => (
          <Card key={group.id} withBorder padding="md" component="section" aria-label={group.name}>
            <Stack gap="sm">
              <Group gap="xs" wrap="wrap">
                <Text fw={700} size="lg">{group.name}</Text>
                <Badge variant="light" color={group.priceRatioMillionths === 1_000_000 ? 'gray' : 'orange'}>{t('models.ratio', { ratio: formatPriceRatio(group.priceRatioMillionths) })}</Badge>
                <Text size="sm" c="dimmed">{t('models.modelCount', { count: group.models.length })}</Text>
              </Group>
              {group.description && <Text size="sm" c="dimmed">{group.description}</Text>}
              {group.models.length === 0 ? <Text size="sm" c="dimmed">{t('models.groupEmpty')}</Text> : <GroupModelsTable group={group} />}
            </Stack>
          </Card>
        ))
      );
  }

  return (
    <Stack gap="md">
      <PageHeader title={t('models.title')} subtitle={t('models.subtitle')} />
      <TextInput
        label={t('models.search')}
        placeholder={t('models.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
      />
      {content}
    </Stack>
  );
}
