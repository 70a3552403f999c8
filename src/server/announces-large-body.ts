import type { FastifyRequest } from 'fastify';

/** Bodies up to this many bytes are read before admission, which then logs a refusal with its model. */
export const earlyAdmissionThresholdBytes = 64 * 1024;

/**
 * True when a request announces a body worth refusing unread: an upload (multipart), a body of unknown length
 * (chunked), or one longer than the threshold. Small JSON bodies cost little to read, and full admission knows
 * their model for the usage log.
 */
export function announcesLargeBody(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers['transfer-encoding'] !== undefined) return true;
  if (headers['content-type']?.toLowerCase().startsWith('multipart/') === true) return true;
  return Number(headers['content-length'] ?? 0) > earlyAdmissionThresholdBytes;
}
