import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Channel } from './channels-types';

/** What the table's row buttons do. */
export interface ChannelRowActions {
  onTest: (channel: Channel) => void;
  onEdit: (channel: Channel) => void;
  onToggle: (channel: Channel) => void;
  onDelete: (channel: Channel) => void;
  /** the channel whose enable/disable is in flight, if any */
  busyChannelId: string | null;
}

/** The channels: name, preset and protocol, base URL, models, priority/weight, status (with models whose breaker is not closed), secret state, actions. */
export function ChannelsTable({ channels, actions }: { channels: Channel[]; actions: ChannelRowActions }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {(['name', 'baseUrl', 'models', 'routing', 'status', 'secret', 'actions'] as const).map((column) => (
              <Table.Th key={column}>{t(`channels.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {channels.map((channel) => (
            <Table.Tr key={channel.id} data-testid={`channel-row-${channel.name}`}>
              <Table.Td>
                <Text fw={600}>{channel.name}</Text>
                <Text size="xs" c="dimmed">{channel.preset ? `${channel.preset} · ${channel.protocol}` : `${t('channels.custom')} · ${channel.protocol}`}</Text>
              </Table.Td>
              {/* On one line: on a phone the table scrolls sideways rather than squeezing the URL into a few characters. */}
              <Table.Td><Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{channel.baseUrl}</Text></Table.Td>
              <Table.Td miw={180}>
                <Group gap={4}>
                  {channel.models.map((model) => (
                    <Badge key={model} variant="light" color="gray" tt="none">{channel.modelMapping[model] ? `${model} → ${channel.modelMapping[model]}` : model}</Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td><Text size="sm" style={{ whiteSpace: 'nowrap' }}>{t('channels.routing', { priority: channel.priority, weight: channel.weight })}</Text></Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Badge color={channel.status === 'enabled' ? 'teal' : 'gray'} variant="light" style={{ minWidth: 'max-content' }}>{t(`channels.status.${channel.status}`)}</Badge>
                  {(channel.health ?? []).filter((breaker) => breaker.state !== 'closed').map((breaker) => (
                    <Badge key={breaker.model} color={breaker.state === 'open' ? 'red' : 'yellow'} variant="light" tt="none" style={{ minWidth: 'max-content' }}>
                      {t(breaker.state === 'open' ? 'channels.health.open' : 'channels.health.halfOpen', { model: breaker.model })}
                    </Badge>
                  ))}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {channel.secretSet ? (channel.secretLast4 ? t('channels.secret.last4', { last4: channel.secretLast4 }) : t('channels.secret.set')) : t('channels.secret.missing')}
                  </Text>
                  {channel.secretSet && !channel.secretReadable && <Badge color="red" variant="light">{t('channels.secret.unreadable')}</Badge>}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" aria-label={t('channels.test.action', { name: channel.name })} onClick={() => actions.onTest(channel)}>{t('channels.test.button')}</Button>
                  <Button size="xs" variant="light" aria-label={t('channels.form.editAction', { name: channel.name })} onClick={() => actions.onEdit(channel)}>{t('channels.edit')}</Button>
                  <Button size="xs" variant="light" loading={actions.busyChannelId === channel.id} aria-label={t(channel.status === 'enabled' ? 'channels.disableAction' : 'channels.enableAction', { name: channel.name })} onClick={() => actions.onToggle(channel)}>
                    {channel.status === 'enabled' ? t('channels.disable') : t('channels.enable')}
                  </Button>
                  <Button size="xs" variant="light" color="red" aria-label={t('channels.deleteAction', { name: channel.name })} onClick={() => actions.onDelete(channel)}>{t('channels.delete')}</Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
