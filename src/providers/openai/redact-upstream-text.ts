const secretLikePattern = /\b(sk|pk|rk|key|api[-_]?key)[-_][A-Za-z0-9_\-]{8,}/gi;
const urlPattern = /\bhttps?:\/\/[^\s"'<>]+/gi;
const bearerPattern = /\bBearer\s+[A-Za-z0-9._\-]+/gi;

/** Removes anything that looks like a secret or an upstream address from a vendor's message before a client sees it. */
export function redactUpstreamText(text: string, maximumLength = 500): string {
  const redacted = text.replace(bearerPattern, 'Bearer [redacted]').replace(secretLikePattern, '[redacted]').replace(urlPattern, '[url]');
  return redacted.length > maximumLength ? `${redacted.slice(0, maximumLength)}…` : redacted;
}
