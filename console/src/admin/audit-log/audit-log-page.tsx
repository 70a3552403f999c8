import { Autocomplete, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { buildAuditLogQuery, knownAuditActions } from './audit-action-label';
import { AuditLogTable } from './audit-log-table';
import type { AuditLogPage as AuditLogAnswer } from './audit-log-types';

/** Entries per page. */
const pageSize = 50;
const noFilters = { action: '', targetId: '' };

/** The audit log (/admin/audit-log, administrators): who did what to which record, filtered by action and target. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState(noFilters);
  const [draft, setDraft] = useState(noFilters);
  const entries = useInfiniteQuery({
    queryKey: ['audit-log', filters],
    queryFn: ({ pageParam }) => requestApi<AuditLogAnswer>('GET', `/admin/audit-log?${buildAuditLogQuery(filters, pageParam, pageSize)}`),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.nextBefore,
  });
  const rows = entries.data?.pages.flatMap((page) => page.data) ?? [];
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const reset = () => {
    setDraft(noFilters);
    setFilters(noFilters);
  };

  let content;
  if (entries.isPending) content = <LoadingState />;
  else if (entries.isError) content = <ErrorState error={entries.error} onRetry={() => void entries.refetch()} />;
  else if (rows.length === 0) content = <EmptyState title={t('auditLog.empty')} hint={t('auditLog.emptyHint')} />;
  else {
    content = (
      <Stack gap="sm">
        <AuditLogTable entries={rows} />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{t('auditLog.shown', { count: rows.length })}</Text>
          {entries.hasNextPage && (
            <Button variant="light" loading={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()}>
              {t('auditLog.loadMore')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader title={t('auditLog.title')} subtitle={t('auditLog.subtitle')} />
      <Paper withBorder p="md" component="form" onSubmit={apply} aria-label={t('auditLog.filters.title')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Autocomplete
            label={t('auditLog.filters.action')}
            placeholder={t('auditLog.filters.actionPlaceholder')}
            data={[...knownAuditActions]}
            value={draft.action}
            onChange={(action) => setDraft((previous) => ({ ...previous, action }))}
          />
          <TextInput
            label={t('auditLog.filters.targetId')}
            placeholder={t('auditLog.filters.targetIdPlaceholder')}
            value={draft.targetId}
            onChange={(event) => {
              const targetId = event.currentTarget.value;
              setDraft((previous) => ({ ...previous, targetId }));
            }}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="md" gap="xs">
          <Button variant="default" onClick={reset}>{t('auditLog.filters.reset')}</Button>
          <Button type="submit">{t('auditLog.filters.apply')}</Button>
        </Group>
      </Paper>
      {content}
    </Stack>
  );
}
