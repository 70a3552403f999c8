// GET /v1/models and /v1/models/{id} in Anthropic's shape (cursor page of `type: "model"` objects, RFC 3339 dates).
import { AnthropicSimulatedError } from './anthropic-simulator-errors.js';

/** One model as Anthropic lists it. */
export interface AnthropicModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  /** RFC 3339 */
  created_at: string;
}

/** One page of the model list. */
export interface AnthropicModelPage {
  data: AnthropicModelInfo[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** The simulated catalogue, newest first as Anthropic orders it. */
export const anthropicSimulatorModels: readonly AnthropicModelInfo[] = [
  { type: 'model', id: 'claude-opus-4-5', display_name: 'Claude Opus 4.5', created_at: '2026-09-01T00:00:00Z' },
  { type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2026-06-01T00:00:00Z' },
  { type: 'model', id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2026-03-01T00:00:00Z' },
];

const defaultLimit = 20;
const maximumLimit = 1000;

/** A page after `after_id` or before `before_id`, at most `limit` (1–1000, default 20) models. */
export function listAnthropicModels(query: Record<string, unknown>): AnthropicModelPage {
  const limit = readLimit(query.limit);
  const all = [...anthropicSimulatorModels];
  let start = 0;
  let end = all.length;
  if (typeof query.after_id === 'string') start = indexOf(all, query.after_id, 'after_id') + 1;
  if (typeof query.before_id === 'string') end = indexOf(all, query.before_id, 'before_id');
  const window = all.slice(start, end);
  const data =
    typeof query.before_id === 'string' && typeof query.after_id !== 'string'
      ? window.slice(-limit)
      : window.slice(0, limit);
  return {
    data,
    has_more: window.length > data.length,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  };
}

/** One model by id, or Anthropic's 404. */
export function findAnthropicModel(id: string): AnthropicModelInfo {
  const model = anthropicSimulatorModels.find((candidate) => candidate.id === id);
  if (model === undefined) throw new AnthropicSimulatedError(404, `model: ${id}`);
  return model;
}

function readLimit(value: unknown): number {
  if (value === undefined) return defaultLimit;
  const limit = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= maximumLimit))
    throw new AnthropicSimulatedError(400, `limit: Input should be between 1 and ${maximumLimit}`);
  return limit;
}

function indexOf(models: AnthropicModelInfo[], id: string, field: string): number {
  const index = models.findIndex((model) => model.id === id);
  if (index === -1) throw new AnthropicSimulatedError(400, `${field}: unknown model id '${id}'`);
  return index;
}
