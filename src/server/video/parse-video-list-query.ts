import { GatewayError } from '../../core/gateway-error.js';

/** `GET /v1/videos` paging: `limit` 0–100 (default 20), `order` asc|desc (default desc), `after` a video id. */
export interface VideoListQuery {
  limit: number;
  order: 'asc' | 'desc';
  after: string | undefined;
}

/** Validates the list query; a bad value is a 400 naming it. */
export function parseVideoListQuery(query: Record<string, string | undefined>): VideoListQuery {
  const limitText = query.limit ?? '20';
  if (!/^\d{1,3}$/.test(limitText) || Number(limitText) > 100) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'limit': must be a whole number from 0 to 100.`,
      { param: 'limit' },
    );
  }
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw new GatewayError('invalid_request_error', `Invalid value for 'order': must be 'asc' or 'desc'.`, {
      param: 'order',
    });
  }
  const after = query.after === '' ? undefined : query.after;
  return { limit: Number(limitText), order, after };
}
