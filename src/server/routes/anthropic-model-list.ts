import { GatewayError } from '../../core/gateway-error.js';
import type { CatalogModel } from '../../routing/catalog-model.js';

/** A model as Anthropic's `GET /v1/models` shows it. */
export interface AnthropicModelObject {
  type: 'model';
  id: string;
  /** the gateway has no separate display name: the id */
  display_name: string;
  /** RFC 3339 release time */
  created_at: string;
}

/** One page of Anthropic's model list. */
export interface AnthropicModelPage {
  data: AnthropicModelObject[];
  has_more: boolean;
  /** null on an empty page */
  first_id: string | null;
  last_id: string | null;
}

/** Anthropic's page size bounds. */
const defaultPageSize = 20;
const largestPageSize = 1000;

/** The paging query of Anthropic's list: `before_id`, `after_id`, `limit` (1 to 1000, default 20). */
export interface AnthropicModelListQuery {
  before_id?: string;
  after_id?: string;
  limit?: string;
}

/** A catalog model in Anthropic's shape. */
export function toAnthropicModelObject(model: CatalogModel): AnthropicModelObject {
  return {
    type: 'model',
    id: model.id,
    display_name: model.id,
    created_at: new Date(model.created * 1000).toISOString(),
  };
}

/**
 * One page of the models (in the given order): after `after_id`, or the last `limit` before `before_id`, as Anthropic
 * pages. A cursor that names no listed model is a 400 naming it.
 */
export function pageAnthropicModels(models: CatalogModel[], query: AnthropicModelListQuery): AnthropicModelPage {
  const limit = parseLimit(query.limit);
  let start = 0;
  let end = models.length;
  if (query.after_id !== undefined) start = cursorIndex(models, query.after_id, 'after_id') + 1;
  if (query.before_id !== undefined) end = cursorIndex(models, query.before_id, 'before_id');
  let page: CatalogModel[];
  let hasMore: boolean;
  if (query.before_id !== undefined && query.after_id === undefined) {
    page = models.slice(Math.max(start, end - limit), end);
    hasMore = end - limit > start;
  } else {
    page = models.slice(start, Math.min(end, start + limit));
    hasMore = start + limit < end;
  }
  const data = page.map(toAnthropicModelObject);
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

function parseLimit(limit: string | undefined): number {
  if (limit === undefined) return defaultPageSize;
  const value = Number(limit);
  if (!Number.isInteger(value) || value < 1 || value > largestPageSize) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'limit': it must be an integer from 1 to ${largestPageSize}.`,
      { param: 'limit' },
    );
  }
  return value;
}

function cursorIndex(models: CatalogModel[], id: string, param: string): number {
  const index = models.findIndex((model) => model.id === id);
  if (index < 0)
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${param}': no listed model has the id '${id}'.`,
      { param },
    );
  return index;
}
