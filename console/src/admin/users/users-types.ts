// The /api answers the Users page reads and sends (docs/API.md "Console API").
import type { ApiBalance, ApiUser } from '../../api/api-types';

/** Per-user request limits: null = the configured default, 0 = unlimited. */
export interface UserLimits {
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  maxConcurrentRequests: number | null;
}

/** A user as GET /api/users lists one, for administrators. */
export interface AdminUser extends ApiUser {
  hasPassword: boolean;
  balance: ApiBalance;
  limits: UserLimits;
  /** the groups the user holds, by name */
  groups: Array<{ id: string; name: string }>;
}

/** A model group as GET /api/groups lists it. */
export interface ModelGroup {
  id: string;
  name: string;
  description: string;
  models: string[];
  /** price multiplier in millionths */
  priceRatioMillionths: number;
}

/** POST /api/users/:id/credits: the new balance. */
export interface CreditResult {
  balance: number;
  debt: number;
}

/** The query key of GET /api/users. */
export const usersQueryKey = ['admin', 'users'] as const;
