import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Stands in for a page a later slice of the console builds, under its navigation label. */
export function ComingSoonPage({ labelKey }: { labelKey: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={2}>{t(labelKey)}</Title>
      <Text>{t('app.comingSoon')}</Text>
      <Text c="dimmed" size="sm">{t('app.comingSoonHint')}</Text>
    </Stack>
  );
}
