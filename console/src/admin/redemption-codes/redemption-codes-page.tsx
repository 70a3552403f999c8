import { Button, Modal, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { CursorPager } from '../../components/cursor-pager';
import { useCursorPaging } from '../../api/use-cursor-paging';
import { CreateBatchForm } from './create-batch-form';
import { NewCodesPanel } from './new-codes-panel';
import { noRedemptionCodeFilters, redemptionCodesExportUrl, redemptionCodesQueryString, type RedemptionCodeFilters } from './redemption-code-filters';
import { RedemptionCodeFilterBar } from './redemption-code-filter-bar';
import { RedemptionCodesTable } from './redemption-codes-table';
import type { CreatedRedemptionBatch, DisableAnswer, RedemptionCode, RedemptionCodePage } from './redemption-codes-types';

/** The query key prefix of the code lists. */
const codesQueryKey = ['admin-redemption-codes'] as const;

/** What a disable acts on: one code or a whole batch. */
type DisableTarget = { kind: 'code'; code: RedemptionCode } | { kind: 'batch'; batchId: string };

/** The id a disable is in flight for. */
function targetId(target: DisableTarget): string {
  switch (target.kind) {
    case 'code':
      return target.code.id;
    case 'batch':
      return target.batchId;
    default: {
      const unknown: never = target;
      return String(unknown);
    }
  }
}

/** The admin Redemption codes page: create a batch (codes shown once), list with filters and paging, disable, export. */
export function RedemptionCodesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<RedemptionCodeFilters>(noRedemptionCodeFilters);
  const [debouncedBatchId] = useDebouncedValue(filters.batchId, 300);
  const applied: RedemptionCodeFilters = { ...filters, batchId: debouncedBatchId };
  const filterKey = redemptionCodesQueryString(applied, null);
  const paging = useCursorPaging(filterKey);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedRedemptionBatch | null>(null);
  const refreshCodes = () => queryClient.invalidateQueries({ queryKey: codesQueryKey });

  const codes = useQuery({
    queryKey: [...codesQueryKey, filterKey, paging.cursor],
    queryFn: () => requestApi<RedemptionCodePage>('GET', `/admin/redemption-codes?${redemptionCodesQueryString(applied, paging.cursor)}`),
    placeholderData: keepPreviousData,
  });

  const disable = useMutation({
    mutationFn: (target: DisableTarget) =>
      requestApi<DisableAnswer>(
        'POST',
        target.kind === 'code' ? `/admin/redemption-codes/${encodeURIComponent(target.code.id)}/disable` : `/admin/redemption-batches/${encodeURIComponent(target.batchId)}/disable`,
      ),
    onSuccess: (answer) => notifications.show({ color: 'teal', message: t('redemptionCodes.disabled', { count: answer.disabled }) }),
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
    onSettled: refreshCodes,
  });

  function confirmDisable(target: DisableTarget) {
    modals.openConfirmModal({
      title: target.kind === 'code' ? t('redemptionCodes.confirmCodeTitle', { prefix: target.code.codePrefix }) : t('redemptionCodes.confirmBatchTitle', { id: target.batchId }),
      children: <Text size="sm">{target.kind === 'code' ? t('redemptionCodes.confirmCodeBody') : t('redemptionCodes.confirmBatchBody')}</Text>,
      labels: { confirm: t('redemptionCodes.confirmDisable'), cancel: t('redemptionCodes.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => disable.mutate(target),
    });
  }

  function showCreated(batch: CreatedRedemptionBatch) {
    setCreating(false);
    setCreated(batch);
    notifications.show({ color: 'teal', message: t('redemptionCodes.createdNotice', { count: batch.codes.length }) });
    void refreshCodes();
  }

  let content;
  if (codes.isPending) content = <LoadingState />;
  else if (codes.isError) content = <ErrorState error={codes.error} onRetry={() => void codes.refetch()} />;
  else if (codes.data.data.length === 0) content = <EmptyState title={t('redemptionCodes.empty')} hint={t('redemptionCodes.emptyHint')} />;
  else {
    content = (
      <Stack gap="sm">
        <RedemptionCodesTable
          codes={codes.data.data}
          actions={{
            onShowBatch: (batchId) => setFilters({ ...filters, batchId }),
            onDisableCode: (code) => confirmDisable({ kind: 'code', code }),
            onDisableBatch: (batchId) => confirmDisable({ kind: 'batch', batchId }),
            busyId: disable.isPending && disable.variables ? targetId(disable.variables) : null,
          }}
        />
        <CursorPager
          paging={paging}
          nextCursor={codes.data.nextCursor}
          loading={codes.isFetching}
          labels={{ previous: t('redemptionCodes.pager.previous'), next: t('redemptionCodes.pager.next'), page: t('redemptionCodes.pager.page', { page: paging.pageNumber }) }}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('redemptionCodes.title')}
        subtitle={t('redemptionCodes.subtitle')}
        actions={
          <>
            <Button component="a" href={redemptionCodesExportUrl(applied)} download variant="default" leftSection={<IconDownload size={16} />}>
              {t('redemptionCodes.exportCsv')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('redemptionCodes.create')}
            </Button>
          </>
        }
      />
      <RedemptionCodeFilterBar filters={filters} onChange={setFilters} />
      {content}
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('redemptionCodes.form.title')} size="md">
        <CreateBatchForm onCreated={showCreated} />
      </Modal>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('redemptionCodes.created.title')} size="lg" closeOnClickOutside={false}>
        {created && <NewCodesPanel batch={created} onDone={() => setCreated(null)} />}
      </Modal>
    </Stack>
  );
}
