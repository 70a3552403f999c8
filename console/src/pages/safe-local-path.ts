/** Where to go after signing in: a local path only (anything else could send the session elsewhere), else /dashboard. */
export function safeLocalPath(candidate: string | undefined): string {
  return candidate && candidate.startsWith('/') && !candidate.startsWith('//') && !candidate.startsWith('/\\') && !candidate.startsWith('/sign-in') ? candidate : '/dashboard';
}
