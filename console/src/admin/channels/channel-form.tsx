import { Button, PasswordInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { useAdminWrite } from '../groups/use-admin-write';
import { channelFormValuesOf, readChannelForm, type ChannelBody, type ChannelFormField, type ChannelFormValues } from './channel-form-values';
import { channelsQueryKeys } from './channels-query-keys';
import { channelProtocols, type Channel, type ChannelPreset, type ChannelProtocol } from './channels-types';

/** Creates a channel (`channel` absent) or edits one; the secret is write-only (empty on an edit keeps it). */
export function ChannelForm({ channel, presets, onDone }: { channel?: Channel; presets: ChannelPreset[]; onDone: () => void }) {
  const { t } = useTranslation();
  const editing = channel !== undefined;
  const [values, setValues] = useState<ChannelFormValues>(channelFormValuesOf(channel));
  const [errors, setErrors] = useState<Partial<Record<ChannelFormField, true>>>({});
  const save = useAdminWrite({
    write: (body: ChannelBody) => (channel ? requestApi<Channel>('PATCH', `/channels/${encodeURIComponent(channel.id)}`, body) : requestApi<Channel>('POST', '/channels', body)),
    success: (saved) => t(editing ? 'channels.form.updated' : 'channels.form.created', { name: saved.name }),
    refresh: [channelsQueryKeys.channels],
    onDone,
  });

  function choosePreset(name: string | null) {
    const preset = presets.find((candidate) => candidate.name === name);
    setValues((current) => ({ ...current, preset: preset?.name ?? '', ...(preset ? { protocol: preset.protocol, baseUrl: preset.baseUrl } : {}) }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = readChannelForm(values, editing);
    setErrors('errors' in read ? read.errors : {});
    if ('body' in read) save.mutate(read.body);
  }

  const set = (name: keyof ChannelFormValues) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [name]: value }));
  };
  const errorOf = (name: ChannelFormField) => (errors[name] ? t(`channels.form.errors.${name}`) : undefined);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('channels.form.preset')}
            description={t('channels.form.presetHint')}
            searchable
            comboboxProps={{ withinPortal: true }}
            data={[{ value: '', label: t('channels.form.custom') }, ...presets.map((preset) => ({ value: preset.name, label: `${preset.name} · ${preset.protocol}` }))]}
            value={values.preset}
            onChange={choosePreset}
            allowDeselect={false}
          />
          <TextInput label={t('channels.form.name')} required value={values.name} onChange={set('name')} error={errorOf('name')} />
          <Select
            label={t('channels.form.protocol')}
            comboboxProps={{ withinPortal: true }}
            data={channelProtocols.map((protocol) => ({ value: protocol, label: protocol }))}
            value={values.protocol}
            onChange={(protocol) => setValues((current) => ({ ...current, protocol: (protocol ?? 'openai') as ChannelProtocol }))}
            allowDeselect={false}
          />
          <TextInput label={t('channels.form.baseUrl')} required placeholder="https://api.example.com/v1" value={values.baseUrl} onChange={set('baseUrl')} error={errorOf('baseUrl')} />
        </SimpleGrid>
        <PasswordInput
          label={t('channels.form.secret')}
          description={editing ? t('channels.form.secretKeep', { last4: channel.secretLast4 ?? '…' }) : t('channels.form.secretHint')}
          required={!editing}
          autoComplete="new-password"
          value={values.secret}
          onChange={set('secret')}
          error={errorOf('secret')}
        />
        <Textarea label={t('channels.form.models')} description={t('channels.form.modelsHint')} required rows={2} value={values.models} onChange={set('models')} error={errorOf('models')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Textarea label={t('channels.form.modelMapping')} description={t('channels.form.modelMappingHint')} rows={3} value={values.modelMapping} onChange={set('modelMapping')} error={errorOf('modelMapping')} />
          <Textarea label={t('channels.form.settings')} description={t('channels.form.settingsHint')} rows={3} value={values.settings} onChange={set('settings')} error={errorOf('settings')} />
          <TextInput label={t('channels.form.priority')} description={t('channels.form.priorityHint')} inputMode="numeric" value={values.priority} onChange={set('priority')} error={errorOf('priority')} />
          <TextInput label={t('channels.form.weight')} description={t('channels.form.weightHint')} inputMode="numeric" value={values.weight} onChange={set('weight')} error={errorOf('weight')} />
        </SimpleGrid>
        <Button type="submit" loading={save.isPending}>{editing ? t('channels.save') : t('channels.form.create')}</Button>
      </Stack>
    </form>
  );
}
