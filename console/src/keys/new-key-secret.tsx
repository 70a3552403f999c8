import { Alert, Button, Code, CopyButton, Group, Stack, Tabs } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { GrantedGroup } from '../api/api-types';
import { buildKeySnippets, gatewayBaseUrl, snippetModelOf } from './key-snippets';

/** A new key's secret, shown this once, with a copy button and ready-to-run snippets for this gateway. */
export function NewKeySecret({ secret, group, onDone }: { secret: string; group: GrantedGroup; onDone: () => void }) {
  const { t } = useTranslation();
  const snippets = buildKeySnippets(gatewayBaseUrl(window.location.origin), secret, snippetModelOf(group.models));
  return (
    <Stack gap="sm">
      <Alert color="yellow">{t('keys.secret.warning')}</Alert>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="new-key-secret">{secret}</Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? t('keys.secret.copied') : t('keys.secret.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Tabs defaultValue="curl">
        <Tabs.List>
          <Tabs.Tab value="curl">{t('keys.secret.curl')}</Tabs.Tab>
          <Tabs.Tab value="python">{t('keys.secret.python')}</Tabs.Tab>
          <Tabs.Tab value="node">{t('keys.secret.node')}</Tabs.Tab>
        </Tabs.List>
        {(['curl', 'python', 'node'] as const).map((language) => (
          <Tabs.Panel key={language} value={language} pt="xs">
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{snippets[language]}</Code>
          </Tabs.Panel>
        ))}
      </Tabs>
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('keys.secret.done')}</Button>
      </Group>
    </Stack>
  );
}
