import { GatewayError } from '../core/gateway-error.js';
import type { UserRecord } from '../storage/store-records.js';
import { auditActorOfCommandLine, type AuditActor } from './audit-actor.js';

/** Who calls an account or routing service, as its rules see it: the /api caller or the operator's CLI. */
export interface AccountActor {
  /** the acting user; undefined for an admin token or the CLI */
  user: UserRecord | undefined;
  /** true for admin users, admin tokens and the CLI */
  isAdmin: boolean;
  /** how the audit log names the actor */
  audit: AuditActor;
}

/** The actor of a `gateway ...` command: an administrator named by the operating-system user who ran it. */
export function accountActorOfCommandLine(osUserName: string): AccountActor {
  return { user: undefined, isAdmin: true, audit: auditActorOfCommandLine(osUserName) };
}

/** The acting user, or 400 for an admin token or the CLI on what concerns "my" account. */
export function requireActingUser(actor: AccountActor): UserRecord {
  if (!actor.user)
    throw new GatewayError(
      'invalid_request_error',
      'An admin token has no account of its own; pass a user id where the route accepts one.',
    );
  return actor.user;
}

/** Throws 403 `forbidden` unless the actor is an administrator. */
export function requireAdministrator(actor: AccountActor): void {
  if (!actor.isAdmin) throw new GatewayError('forbidden', 'Only administrators may do this.');
}
