import type { FastifyRequest } from 'fastify';

/** What a Messages request forwards unchanged to Anthropic channels, beside its body. */
export interface AnthropicForwarding {
  /** the query string without `?` (Claude Code sends `beta=true`); empty when none */
  queryString: string;
  /** the client's `anthropic-version` header */
  anthropicVersion: string | undefined;
  /** the client's `anthropic-beta` header (a comma list) */
  anthropicBeta: string | undefined;
}

/** Reads the query string and the `anthropic-version` / `anthropic-beta` headers of a Messages request. */
export function readAnthropicForwarding(request: FastifyRequest): AnthropicForwarding {
  const queryStart = request.url.indexOf('?');
  return {
    queryString: queryStart === -1 ? '' : request.url.slice(queryStart + 1),
    anthropicVersion: joinHeader(request.headers['anthropic-version']),
    anthropicBeta: joinHeader(request.headers['anthropic-beta']),
  };
}

function joinHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
