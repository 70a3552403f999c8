import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMicroUnits } from '../format/format-micro-units';
import type { PricedGroup } from './models-types';
import { otherPricesOf, type OtherPrice } from './other-prices';

const tokenColumns = ['inputPerMillion', 'cachedInputPerMillion', 'cacheWritePerMillion', 'outputPerMillion'] as const;

/** A group's models: availability, token prices per million after the ratio, and image, audio and video prices. */
export function GroupModelsTable({ group }: { group: PricedGroup }) {
  const { t, i18n } = useTranslation();
  const money = (amount: number) => formatMicroUnits(amount, i18n.language);
  const describeOther = (price: OtherPrice) => {
    switch (price.kind) {
      case 'image':
        return t('models.perImage', { variant: price.variant, amount: money(price.amount) });
      case 'audio':
        return t('models.perMinute', { amount: money(price.amount) });
      case 'video':
        return t('models.perSecond', { amount: money(price.amount) });
      default: {
        const unreachable: never = price;
        throw new Error(`unknown price ${JSON.stringify(unreachable)}`);
      }
    }
  };
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped verticalSpacing="xs" aria-label={t('models.tableLabel', { name: group.name })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('models.columns.model')}</Table.Th>
            <Table.Th>{t('models.columns.availability')}</Table.Th>
            {tokenColumns.map((column) => <Table.Th key={column} ta="right">{t(`models.columns.${column}`)}</Table.Th>)}
            <Table.Th>{t('models.columns.other')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {group.models.map((model) => {
            const others = otherPricesOf(model.prices);
            return (
              <Table.Tr key={model.id} data-testid={`model-row-${group.id}-${model.id}`}>
                <Table.Td>
                  <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }}>{model.id}</Text>
                  {model.ownedBy && <Text size="xs" c="dimmed">{model.ownedBy}</Text>}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={model.available ? 'teal' : 'gray'} style={{ minWidth: 'max-content' }}>
                    {model.available ? t('models.available') : t('models.unavailable')}
                  </Badge>
                </Table.Td>
                {tokenColumns.map((column) => <Table.Td key={column} ta="right" ff="monospace">{money(model.prices[column])}</Table.Td>)}
                <Table.Td>
                  {others.length === 0 ? <Text size="sm" c="dimmed">—</Text> : others.map((price) => <Text key={describeOther(price)} size="xs" style={{ whiteSpace: 'nowrap' }}>{describeOther(price)}</Text>)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
