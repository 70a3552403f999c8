/** Longest return path kept, in characters. */
const returnPathMaxLength = 2_048;
/** How many rounds of percent-decoding are looked through (`%252f` is `%2f` after one round). */
const decodingRounds = 3;
/** A base that no real request has, so anything that resolves elsewhere is seen as another origin. */
const localBase = 'http://gateway.invalid';

/**
 * The return path after sign-in when it is a local path of this gateway (`/console/keys?tab=1`), else `/`: never
 * another origin, so the sign-in cannot be used as an open redirect. The path is resolved first (`/.//evil` resolves to
 * `//evil`) and refused when the result, or any percent-decoding of its path, starts with `//` or holds `\` or a
 * control character; the answer is the resolved form, so checking it again gives the same path. Used at the start of
 * a sign-in and again at its callback.
 */
export function safeReturnPath(candidate: string | undefined): string {
  if (candidate === undefined || candidate.length === 0 || candidate.length > returnPathMaxLength) return '/';
  if (!candidate.startsWith('/') || looksLikeAnotherOrigin(candidate)) return '/';
  let resolved: URL;
  try {
    resolved = new URL(candidate, localBase);
  } catch {
    return '/';
  }
  if (resolved.origin !== localBase) return '/';
  const path = resolved.pathname + resolved.search + resolved.hash;
  if (looksLikeAnotherOrigin(path) || looksLikeAnotherOrigin(resolved.pathname, { decode: true })) return '/';
  return path;
}

/**
 * True when `path` starts with two slashes (in either direction) or holds a backslash or a control character (URL
 * parsers drop tabs and newlines, so `/\t/evil` is `//evil`); with `decode`, also after each round of percent-decoding,
 * and when the decoding fails.
 */
function looksLikeAnotherOrigin(path: string, options: { decode: boolean } = { decode: false }): boolean {
  let current = path;
  for (let round = 0; round <= (options.decode ? decodingRounds : 0); round += 1) {
    if (/^[/\\]{2}/.test(current) || /[\u0000-\u001f\u007f\\]/.test(current)) return true;
    // A decoded slash right after a dot segment (`/..%2f/evil`) would resolve to `//evil` in a second parser.
    if (/^\/\.{1,2}[/\\]/.test(current)) return true;
    if (!current.includes('%')) return false;
    try {
      current = decodeURIComponent(current);
    } catch {
      return true;
    }
  }
  return current.includes('%');
}
