import { Alert, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import type { Channel, ChannelTestResult } from './channels-types';

/** Sends one test request through a channel with a chosen model and shows ok, latency and status, or the error. */
export function ChannelTestForm({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  const [model, setModel] = useState<string | null>(channel.models.find((candidate) => candidate !== '*') ?? null);
  const probe = useMutation({
    mutationFn: (chosen: string | null) => requestApi<ChannelTestResult>('POST', `/channels/${encodeURIComponent(channel.id)}/test`, chosen ? { model: chosen } : {}),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    probe.mutate(model);
  }

  const result = probe.data;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Select
          label={t('channels.test.model')}
          searchable
          comboboxProps={{ withinPortal: true }}
          data={channel.models.filter((candidate) => candidate !== '*')}
          value={model}
          onChange={setModel}
        />
        <Button type="submit" loading={probe.isPending}>{t('channels.test.run')}</Button>
        {probe.isError && <Alert color="red" role="alert">{probe.error.message}</Alert>}
        {result && (
          <Alert color={result.ok ? 'teal' : 'red'} role="status" title={result.ok ? t('channels.test.ok') : t('channels.test.failed')}>
            <Stack gap={4}>
              <Group gap="xs">
                <Badge variant="light" color="gray" tt="none">{result.model}</Badge>
                <Text size="sm">{t('channels.test.latency', { ms: result.latencyMs })}</Text>
                <Text size="sm">{result.status === null ? t('channels.test.unreachable') : t('channels.test.status', { status: result.status })}</Text>
              </Group>
              {result.error && <Text size="sm" style={{ wordBreak: 'break-word' }}>{result.error}</Text>}
            </Stack>
          </Alert>
        )}
      </Stack>
    </form>
  );
}
