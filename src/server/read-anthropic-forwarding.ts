import type { FastifyRequest } from 'fastify';

/**
 * The headers of a Messages request that may go on to Anthropic channels, beside its body. The query string is never
 * forwarded (Claude Code's `?beta=true` included): the gateway decides the vendor's URL.
 */
export interface AnthropicForwarding {
  /** the client's `anthropic-version` header */
  anthropicVersion: string | undefined;
  /** the client's `anthropic-beta` header (a comma list), as sent: planAnthropicForwarding decides what goes on */
  anthropicBeta: string | undefined;
}

/** Reads the `anthropic-version` / `anthropic-beta` headers of a Messages request. */
export function readAnthropicForwarding(request: FastifyRequest): AnthropicForwarding {
  return {
    anthropicVersion: joinHeader(request.headers['anthropic-version']),
    anthropicBeta: joinHeader(request.headers['anthropic-beta']),
  };
}

function joinHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
