import { useQuery } from '@tanstack/react-query';
import type { CurrentSession, SessionState } from './api-types';
import { requestApi } from './request-api';

/** The query key of GET /api/me; invalidated on sign-in and sign-out. */
export const currentSessionQueryKey = ['me'] as const;

/** Whether the browser holds a live session (GET /api/auth/session: always 200, so no 401 shows in the browser's console). */
export const fetchSessionState = () => requestApi<SessionState>('GET', '/auth/session');

/** Reads who is signed in (GET /api/me); fails with a 401 ApiError when nobody is. */
export const fetchCurrentSession = () => requestApi<CurrentSession>('GET', '/me');

/** Who is signed in, from the query cache the shell route filled before rendering. */
export function useCurrentSession() {
  return useQuery({ queryKey: currentSessionQueryKey, queryFn: fetchCurrentSession, retry: false });
}
