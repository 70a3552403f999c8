import { Alert, Button, Code, CopyButton, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/format-date-time';
import { formatMicroUnits } from '../../format/format-micro-units';
import { downloadText, newCodesCsv } from './new-codes-csv';
import type { CreatedRedemptionBatch } from './redemption-codes-types';

/** A new batch's full codes, shown this once, with copy-all and a CSV download. */
export function NewCodesPanel({ batch, onDone }: { batch: CreatedRedemptionBatch; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const allCodes = batch.codes.map((code) => code.code).join('\n');
  return (
    <Stack gap="sm">
      <Alert color="yellow">{t('redemptionCodes.created.warning')}</Alert>
      <Text size="sm">
        {t('redemptionCodes.created.summary', { count: batch.codes.length, amount: formatMicroUnits(batch.amount, locale) })}{' '}
        {batch.expiresAt === null ? t('redemptionCodes.created.noExpiry') : t('redemptionCodes.created.expires', { date: formatDateTime(batch.expiresAt, locale) })}
        {batch.note ? ` · ${batch.note}` : ''}
      </Text>
      <Text size="xs" c="dimmed">{t('redemptionCodes.created.batch', { id: batch.batchId })}</Text>
      <ScrollArea.Autosize mah={280} type="auto">
        <Code block data-testid="new-redemption-codes" style={{ whiteSpace: 'pre', wordBreak: 'normal' }}>{allCodes}</Code>
      </ScrollArea.Autosize>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap="xs">
          <CopyButton value={allCodes}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                {copied ? t('redemptionCodes.created.copied') : t('redemptionCodes.created.copyAll')}
              </Button>
            )}
          </CopyButton>
          <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => downloadText(newCodesCsv(batch), `redemption-codes-${batch.batchId}.csv`)}>
            {t('redemptionCodes.created.downloadCsv')}
          </Button>
        </Group>
        <Button onClick={onDone}>{t('redemptionCodes.created.done')}</Button>
      </Group>
    </Stack>
  );
}
