import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled card of the Settings page, labelled by its title for assistive technology. */
export function SettingsSection({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`${id}-title`}>
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4" id={`${id}-title`}>{title}</Title>
          {description && <Text size="sm" c="dimmed">{description}</Text>}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
