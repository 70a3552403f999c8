/**
 * The return path after sign-in when it is a local path of this gateway (`/console/keys?tab=1`), else `/`: never
 * another origin (`//evil.example`, `/\evil.example`, `https://...`), so the sign-in cannot be used as an open redirect.
 */
export function safeReturnPath(candidate: string | undefined): string {
  if (candidate === undefined || candidate.length === 0 || candidate.length > 2_048) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/';
  // Control characters (tabs and newlines are dropped by URL parsers) could turn `/\t/evil` into `//evil`.
  if (/[\u0000-\u001f\u007f\\]/.test(candidate)) return '/';
  const base = 'http://gateway.invalid';
  const resolved = new URL(candidate, base);
  if (resolved.origin !== base) return '/';
  return resolved.pathname + resolved.search + resolved.hash;
}
