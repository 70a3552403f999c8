/** The query key of GET /api/auth/sessions. */
export const sessionsQueryKey = ['settings', 'sessions'] as const;

/** The query key of GET /api/me/identities. */
export const identitiesQueryKey = ['settings', 'identities'] as const;

/** The query key of GET /api/me/two-factor. */
export const twoFactorQueryKey = ['settings', 'two-factor'] as const;
