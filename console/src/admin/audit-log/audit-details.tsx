import { Button, Code, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A short one-line summary of an entry's details: `amount: 5000000, reason: "refund"`. */
export function summarizeDetails(details: Record<string, unknown>, maxLength = 80): string {
  const text = Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === 'object' && value !== null ? (Array.isArray(value) ? `[${value.length}]` : '{…}') : JSON.stringify(value)}`)
    .join(', ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** An entry's details: a one-line summary, expandable to the whole JSON. */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (Object.keys(details).length === 0) return <Text size="sm" c="dimmed">{t('auditLog.noDetails')}</Text>;
  return (
    <Stack gap={4} align="flex-start">
      <Text size="xs" ff="monospace" c="dimmed">{summarizeDetails(details)}</Text>
      <Button size="compact-xs" variant="subtle" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
        {open ? t('auditLog.hideDetails') : t('auditLog.showDetails')}
      </Button>
      {open && (
        <Code block style={{ maxWidth: 480, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {JSON.stringify(details, null, 2)}
        </Code>
      )}
    </Stack>
  );
}
