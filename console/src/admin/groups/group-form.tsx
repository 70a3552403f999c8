import { Button, Stack, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { groupsQueryKeys } from './groups-query-keys';
import type { ModelGroup } from './groups-types';
import { splitModelList } from './split-model-list';
import { useAdminWrite } from './use-admin-write';

/** Creates a group (`group` absent) or edits one: name, description and models. */
export function GroupForm({ group, onDone }: { group?: ModelGroup; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [models, setModels] = useState(group?.models.join(', ') ?? '');
  const [submitted, setSubmitted] = useState(false);
  const modelList = splitModelList(models);
  const nameError = submitted && name.trim() === '' ? t('groups.form.nameRequired') : undefined;
  const modelsError = submitted && modelList.length === 0 ? t('groups.form.modelsRequired') : undefined;
  const save = useAdminWrite({
    write: (body: { name: string; description: string; models: string[] }) =>
      group ? requestApi<ModelGroup>('PATCH', `/groups/${encodeURIComponent(group.id)}`, body) : requestApi<ModelGroup>('POST', '/groups', body),
    success: (saved) => t(group ? 'groups.form.updated' : 'groups.form.created', { name: saved.name }),
    refresh: [groupsQueryKeys.groups],
    onDone,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() === '' || modelList.length === 0) return;
    save.mutate({ name: name.trim(), description: description.trim(), models: modelList });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('groups.form.name')} required value={name} onChange={(event) => setName(event.currentTarget.value)} error={nameError} />
        <TextInput label={t('groups.form.description')} value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
        <Textarea label={t('groups.form.models')} description={t('groups.form.modelsHint')} required rows={3} value={models} onChange={(event) => setModels(event.currentTarget.value)} error={modelsError} />
        <Button type="submit" loading={save.isPending}>{group ? t('groups.save') : t('groups.form.create')}</Button>
      </Stack>
    </form>
  );
}
