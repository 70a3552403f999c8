import type { FastifyRequest } from 'fastify';

/** The first value of a cookie in the request's Cookie header (URL-decoded), or undefined. */
export function readRequestCookie(request: FastifyRequest, name: string): string | undefined {
  const cookies = request.headers.cookie;
  if (!cookies) return undefined;
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}
