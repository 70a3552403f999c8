/**
 * Headers on every console response (the page, its assets, the "not built" page). Scripts come only from this
 * origin (no inline script, no eval); styles may be inline because Mantine sets CSS variables and positions in
 * `style` attributes; the page may call only its own origin (/api); no page may frame it.
 */
export const consoleSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};
