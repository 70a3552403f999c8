const secretLikePattern = /\b(sk|pk|rk|key|api[-_]?key|xai|gsk)[-_][A-Za-z0-9_\-]{8,}/gi;
/** Google API keys (Gemini, Vertex): `AIza` and 35 more characters. */
const googleKeyPattern = /\bAIza[A-Za-z0-9_\-]{20,}/g;
/** AWS access key ids, long-term (`AKIA`) and temporary (`ASIA`). */
const awsAccessKeyIdPattern = /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g;
const urlPattern = /\bhttps?:\/\/[^\s"'<>]+/gi;
const bearerPattern = /\bBearer\s+[A-Za-z0-9._\-]+/gi;

/**
 * Removes the channel's own secrets and host (`knownSecrets`, whatever their format) and anything that looks
 * like a key (`sk-...`, `AIza...`, AWS key ids, bearer tokens) or an address from a vendor's message before a client sees it.
 */
export function redactUpstreamText(text: string, knownSecrets: readonly string[] = [], maximumLength = 500): string {
  let redacted = text;
  for (const secret of knownSecrets) if (secret.length >= 4) redacted = redacted.replaceAll(secret, '[redacted]');
  redacted = redacted
    .replace(bearerPattern, 'Bearer [redacted]')
    .replace(secretLikePattern, '[redacted]')
    .replace(googleKeyPattern, '[redacted]')
    .replace(awsAccessKeyIdPattern, '[redacted]')
    .replace(urlPattern, '[url]');
  return redacted.length > maximumLength ? `${redacted.slice(0, maximumLength)}…` : redacted;
}
