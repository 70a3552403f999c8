import { Button, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey, DataList } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { PageHeader } from '../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { buildUsageLogQuery } from './usage-log-filters';
import { UsageLogDetail } from './usage-log-detail';
import { UsageLogFilterForm } from './usage-log-filter-form';
import { UsageLogsTable, type UsageLogNames } from './usage-logs-table';
import type { ListedUser, UsageLog } from './usage-logs-types';
import { useUsageLogFilters } from './use-usage-log-filters';
import { useUsageLogs } from './use-usage-logs';

/** Whose logs a page shows: the caller's own, or everyone's (administrators; adds the user filter and column). */
export type UsageLogScope = 'mine' | 'all';

/** A usage logs page: filters kept in the URL, the table with "load more", a row's detail, and CSV export of the filter. */
export function UsageLogsView({ scope }: { scope: UsageLogScope }) {
  const { t } = useTranslation();
  const all = scope === 'all';
  const [filters, setFilters] = useUsageLogFilters();
  // Relative ranges ("last 7 days") count back from when the filters were applied, so the query stays the same.
  const query = useMemo(() => buildUsageLogQuery(filters, Date.now(), all), [filters, all]);
  const logs = useUsageLogs(query);
  const keys = useQuery({ queryKey: ['keys', scope], queryFn: () => requestApi<DataList<ApiKey>>('GET', '/keys') });
  const users = useQuery({ queryKey: ['users'], queryFn: () => requestApi<DataList<ListedUser>>('GET', '/users'), enabled: all });
  const [opened, setOpened] = useState<UsageLog | null>(null);

  const keyNames = new Map((keys.data?.data ?? []).map((key) => [key.id, key.name]));
  const userNames = new Map((users.data?.data ?? []).map((user) => [user.id, user.email]));
  const names: UsageLogNames = {
    keyName: (apiKeyId) => keyNames.get(apiKeyId) ?? t('usageLogs.deletedKey'),
    ...(all ? { userName: (userId: string) => userNames.get(userId) ?? t('usageLogs.unknownUser') } : {}),
  };
  const visibleKeys = (keys.data?.data ?? []).filter((key) => !all || filters.userId === '' || key.userId === filters.userId);
  const keyOptions = visibleKeys.map((key) => ({ value: key.id, label: all ? `${key.name} · ${userNames.get(key.userId) ?? key.userId}` : key.name }));
  const userOptions = all ? (users.data?.data ?? []).map((user) => ({ value: user.id, label: user.email })) : undefined;
  const rows = logs.data?.pages.flatMap((page) => page.data) ?? [];

  let content;
  if (logs.isPending) content = <LoadingState />;
  else if (logs.isError) content = <ErrorState error={logs.error} onRetry={() => void logs.refetch()} />;
  else if (rows.length === 0) content = <EmptyState title={t('usageLogs.empty')} hint={t('usageLogs.emptyHint')} />;
  else {
    content = (
      <Stack gap="sm">
        <UsageLogsTable logs={rows} names={names} onOpen={setOpened} />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{t('usageLogs.shown', { count: rows.length })}</Text>
          {logs.hasNextPage && (
            <Button variant="light" loading={logs.isFetchingNextPage} onClick={() => void logs.fetchNextPage()}>
              {t('usageLogs.loadMore')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t(all ? 'usageLogs.allTitle' : 'usageLogs.title')}
        subtitle={t(all ? 'usageLogs.allSubtitle' : 'usageLogs.subtitle')}
        actions={
          <Button component="a" href={`/api/usage/logs.csv${query ? `?${query}` : ''}`} download="usage-logs.csv" variant="default" leftSection={<IconDownload size={16} />}>
            {t('usageLogs.exportCsv')}
          </Button>
        }
      />
      <UsageLogFilterForm filters={filters} onApply={setFilters} keys={keyOptions} users={userOptions} />
      {content}
      <UsageLogDetail log={opened} names={names} onClose={() => setOpened(null)} />
    </Stack>
  );
}
