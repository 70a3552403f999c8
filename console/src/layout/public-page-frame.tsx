import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PreferenceControls } from './preference-controls';

/** The frame of the pages shown before sign-in: a centred card with the preferences above it. */
export function PublicPageFrame({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md">
      <Stack w="100%" maw={420} gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{t('app.name')}</Text>
          <PreferenceControls />
        </Group>
        <Paper withBorder shadow="sm" p="lg" component="main">
          <Stack gap="md">
            <div>
              <Title order={2}>{title}</Title>
              <Text c="dimmed" size="sm">{subtitle}</Text>
            </div>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}
