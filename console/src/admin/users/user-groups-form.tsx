import { Alert, Button, Checkbox, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { myGroupsQueryKey } from '../../api/my-groups-query';
import { requestApi } from '../../api/request-api';
import { formatPriceRatio } from '../../format/format-date-time';
import { usersQueryKey, type AdminUser, type ModelGroup } from './users-types';

/** Grant and withdraw groups: a checkbox per group (GET /api/groups), saved as the user's whole set (PUT /api/users/:id/groups). */
export function UserGroupsForm({ user, groups }: { user: AdminUser; groups: ModelGroup[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const held = user.groups.map((group) => group.id);
  const [chosen, setChosen] = useState<string[]>(held);
  const changed = chosen.length !== held.length || chosen.some((id) => !held.includes(id));

  const save = useMutation({
    mutationFn: () => requestApi('PUT', `/users/${encodeURIComponent(user.id)}/groups`, { groups: chosen }),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('users.groups.saved') });
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
      // An admin may have granted themselves: their own Models and API keys pages read the groups afresh.
      void queryClient.invalidateQueries({ queryKey: myGroupsQueryKey });
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  if (groups.length === 0) return <Alert color="yellow">{t('users.groups.none')}</Alert>;
  return (
    <Stack gap="sm">
      <Checkbox.Group label={t('users.groups.label')} description={t('users.groups.hint')} value={chosen} onChange={setChosen}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
          {groups.map((group) => (
            <Checkbox
              key={group.id}
              value={group.id}
              label={t('users.groups.option', { name: group.name, ratio: formatPriceRatio(group.priceRatioMillionths) })}
              description={<Text span size="xs" c="dimmed">{group.models.includes('*') ? t('users.groups.everyModel') : t('users.groups.models', { count: group.models.length })}</Text>}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!changed} style={{ alignSelf: 'flex-start' }}>{t('users.groups.save')}</Button>
    </Stack>
  );
}
