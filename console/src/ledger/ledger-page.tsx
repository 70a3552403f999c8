import { Button, Card, Center, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../api/use-current-session';
import { PageHeader } from '../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { formatMicroUnits } from '../format/format-micro-units';
import { ledgerQueryKey } from '../top-up/use-order-polling';
import { LedgerTable } from './ledger-table';
import type { LedgerEntry } from './ledger-types';
import { useCursorList } from '../api/use-cursor-list';
import { withBalanceAfter } from './with-balance-after';

/** Entries read per page. */
const pageSize = 50;

/** The ledger page: every change of the caller's balance and debt, newest first, page by page. */
export function LedgerPage() {
  const { t, i18n } = useTranslation();
  const session = useCurrentSession();
  const ledger = useCursorList<LedgerEntry>(ledgerQueryKey, '/ledger', pageSize);
  const balance = session.data?.balance;

  let content;
  if (ledger.isPending || session.isPending) content = <LoadingState />;
  else if (ledger.isError) content = <ErrorState error={ledger.error} onRetry={() => void ledger.refetch()} />;
  else if (ledger.rows.length === 0) content = <EmptyState title={t('ledger.empty')} hint={t('ledger.emptyHint')} />;
  else {
    content = (
      <>
        <LedgerTable rows={withBalanceAfter(ledger.rows, balance?.balance ?? 0)} />
        {ledger.hasNextPage && (
          <Center mt="sm">
            <Button variant="default" size="xs" loading={ledger.isFetchingNextPage} onClick={() => void ledger.fetchNextPage()}>{t('ledger.more')}</Button>
          </Center>
        )}
      </>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('ledger.title')}
        subtitle={t('ledger.subtitle')}
        actions={balance ? <Text size="sm">{t('ledger.balance', { balance: formatMicroUnits(balance.balance, i18n.language) })}{balance.debt > 0 ? ` · ${t('ledger.debt', { debt: formatMicroUnits(balance.debt, i18n.language) })}` : ''}</Text> : undefined}
      />
      <Card withBorder padding="md">{content}</Card>
    </Stack>
  );
}
