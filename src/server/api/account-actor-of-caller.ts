import type { AccountActor } from '../../accounts/account-actor.js';
import { auditActorOfCaller } from '../../accounts/audit-actor.js';
import type { ApiCaller } from './authenticate-api-caller.js';

/** The /api caller as the account and routing services see it: its user, whether it acts as admin, its audit name. */
export function accountActorOfCaller(caller: ApiCaller): AccountActor {
  return { user: caller.user, isAdmin: caller.isAdmin, audit: auditActorOfCaller(caller) };
}
