import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { groupsQueryKeys } from './groups-query-keys';
import type { ModelGroup } from './groups-types';
import { formatRatio } from './format-ratio';
import { parsePriceRatio } from './parse-price-ratio';
import { microUnitsToDecimal } from './price-form-values';
import { useAdminWrite } from './use-admin-write';

/** Changes a group's price ratio: typed as a decimal ("1.5"), sent as millionths exactly. */
export function PriceRatioForm({ group, onDone }: { group: ModelGroup; onDone: () => void }) {
  const { t } = useTranslation();
  const [ratio, setRatio] = useState(microUnitsToDecimal(group.priceRatioMillionths));
  const millionths = parsePriceRatio(ratio);
  const save = useAdminWrite({
    write: (priceRatioMillionths: number) => requestApi('PUT', `/groups/${encodeURIComponent(group.id)}/price-ratio`, { priceRatioMillionths }),
    success: (_answer, priceRatioMillionths) => t('groups.ratio.saved', { name: group.name, ratio: formatRatio(priceRatioMillionths) }),
    refresh: [groupsQueryKeys.groups],
    onDone,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (millionths !== null) save.mutate(millionths);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('groups.ratio.label')}
          description={t('groups.ratio.hint')}
          inputMode="decimal"
          value={ratio}
          onChange={(event) => setRatio(event.currentTarget.value)}
          error={millionths === null ? t('groups.ratio.invalid') : undefined}
          data-autofocus
        />
        {millionths !== null && <Text size="sm" c="dimmed">{t('groups.ratio.preview', { ratio: formatRatio(millionths) })}</Text>}
        <Button type="submit" loading={save.isPending} disabled={millionths === null}>{t('groups.save')}</Button>
      </Stack>
    </form>
  );
}
