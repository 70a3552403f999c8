import { splitModelList } from '../groups/split-model-list';
import type { Channel, ChannelProtocol } from './channels-types';

/** What the channel form holds, as typed. */
export interface ChannelFormValues {
  /** a preset name, or '' for a custom channel */
  preset: string;
  name: string;
  protocol: ChannelProtocol;
  baseUrl: string;
  /** write-only: empty on an edit keeps the stored secret */
  secret: string;
  models: string;
  /** `public=upstream`, one a line */
  modelMapping: string;
  /** `key=value`, one a line */
  settings: string;
  priority: string;
  weight: string;
}

/** The form's fields that can be wrong. */
export type ChannelFormField = 'name' | 'baseUrl' | 'secret' | 'models' | 'modelMapping' | 'settings' | 'priority' | 'weight';

/** The body of POST /api/channels or PATCH /api/channels/:id. */
export interface ChannelBody {
  name: string;
  preset?: string | null;
  protocol: ChannelProtocol;
  baseUrl: string;
  secret?: string;
  models: string[];
  modelMapping: Record<string, string>;
  settings: Record<string, string>;
  priority: number;
  weight: number;
}

/** The form's values for a new channel, or for editing `channel` (the secret stays empty). */
export function channelFormValuesOf(channel?: Channel): ChannelFormValues {
  const lines = (record: Record<string, string>) => Object.entries(record).map(([key, value]) => `${key}=${value}`).join('\n');
  return {
    preset: channel?.preset ?? '',
    name: channel?.name ?? '',
    protocol: channel?.protocol ?? 'openai',
    baseUrl: channel?.baseUrl ?? '',
    secret: '',
    models: channel?.models.join(', ') ?? '',
    modelMapping: channel ? lines(channel.modelMapping) : '',
    settings: channel ? lines(channel.settings) : '',
    priority: String(channel?.priority ?? 0),
    weight: String(channel?.weight ?? 1),
  };
}

/** Reads `key=value` lines (blank lines skipped); null when a line has no `=` or an empty side. */
export function readKeyValueLines(text: string): Record<string, string> | null {
  const record: Record<string, string> = {};
  for (const line of text.split('\n').map((candidate) => candidate.trim()).filter((candidate) => candidate !== '')) {
    const separator = line.indexOf('=');
    const key = line.slice(0, separator).trim();
    const value = line.slice(separator + 1).trim();
    if (separator < 0 || key === '' || value === '') return null;
    record[key] = value;
  }
  return record;
}

const integerPattern = /^-?\d{1,9}$/;

/**
 * Reads the form into the body to send: a new channel needs a secret; an edit sends one only when typed
 * (empty keeps the stored secret) and `preset: null` for a custom channel.
 */
export function readChannelForm(values: ChannelFormValues, editing: boolean): { body: ChannelBody } | { errors: Partial<Record<ChannelFormField, true>> } {
  const errors: Partial<Record<ChannelFormField, true>> = {};
  const name = values.name.trim();
  const baseUrl = values.baseUrl.trim();
  const models = splitModelList(values.models);
  const modelMapping = readKeyValueLines(values.modelMapping);
  const settings = readKeyValueLines(values.settings);
  if (name === '') errors.name = true;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) errors.baseUrl = true;
  if (!editing && values.secret === '') errors.secret = true;
  if (models.length === 0) errors.models = true;
  if (modelMapping === null) errors.modelMapping = true;
  if (settings === null) errors.settings = true;
  if (!integerPattern.test(values.priority.trim())) errors.priority = true;
  if (!integerPattern.test(values.weight.trim()) || Number(values.weight) < 0) errors.weight = true;
  if (Object.keys(errors).length > 0 || modelMapping === null || settings === null) return { errors };
  const preset = values.preset === '' ? (editing ? null : undefined) : values.preset;
  return {
    body: {
      name,
      ...(preset === undefined ? {} : { preset }),
      protocol: values.protocol,
      baseUrl,
      ...(values.secret === '' ? {} : { secret: values.secret }),
      models,
      modelMapping,
      settings,
      priority: Number(values.priority.trim()),
      weight: Number(values.weight.trim()),
    },
  };
}
