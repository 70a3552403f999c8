/** Rounds of percent-decoding looked through (`%252f` is `%2f` after one round). */
const decodingRounds = 3;
/** A base no real page has: anything that resolves to another origin is refused. */
const localBase = 'http://console.invalid';

/**
 * Where to go after signing in: a local path only (anything else could send the session elsewhere), else /dashboard.
 * The same rule as the gateway's own return-path check: the path is resolved first (`/.//evil` is `//evil`) and refused
 * when it, or a percent-decoding of its path, starts with `//` or holds `\` or a control character; never /sign-in.
 */
export function safeLocalPath(candidate: string | undefined): string {
  const fallback = '/dashboard';
  if (!candidate || candidate.length > 2_048 || !candidate.startsWith('/') || leavesTheOrigin(candidate, 0)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(candidate, localBase);
  } catch {
    return fallback;
  }
  const path = resolved.pathname + resolved.search + resolved.hash;
  if (resolved.origin !== localBase || leavesTheOrigin(path, 0) || leavesTheOrigin(resolved.pathname, decodingRounds)) return fallback;
  return resolved.pathname === '/sign-in' || resolved.pathname.startsWith('/sign-in/') ? fallback : path;
}

/** True when `path` (or one of its first `rounds` percent-decodings) starts with two slashes, or holds `\` or a control character. */
function leavesTheOrigin(path: string, rounds: number): boolean {
  let current = path;
  for (let round = 0; round <= rounds; round += 1) {
    if (/^[/\\]{2}/.test(current) || /^\/\.{1,2}[/\\]/.test(current) || /[\u0000-\u001f\u007f\\]/.test(current)) return true;
    if (!current.includes('%')) return false;
    try {
      current = decodeURIComponent(current);
    } catch {
      return true;
    }
  }
  return rounds > 0 && current.includes('%');
}
