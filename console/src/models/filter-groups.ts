import type { PricedGroup } from './models-types';

/**
 * The groups with only the models matching `search` (case-insensitive, in the model id or its owner); a group whose
 * name matches keeps every model. Groups left without a model drop out. An empty search keeps everything.
 */
export function filterGroups(groups: PricedGroup[], search: string): PricedGroup[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return groups;
  return groups
    .map((group) => {
      if (group.name.toLowerCase().includes(needle)) return group;
      return { ...group, models: group.models.filter((model) => model.id.toLowerCase().includes(needle) || (model.ownedBy ?? '').toLowerCase().includes(needle)) };
    })
    .filter((group) => group.models.length > 0);
}
