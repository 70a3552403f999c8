import type { AuditAction } from '../storage/audit-actions.js';
import type { AdminTokenRecord } from '../storage/sign-in-records.js';
import type { NewAuditEntry, UserRecord } from '../storage/store-records.js';

/** Who an audit entry names: the acting user's id, a display label, the kind of actor and the token id or OS user. */
export type AuditActor = Pick<NewAuditEntry, 'actorUserId' | 'actorLabel' | 'actorKind' | 'actorId'>;

/** One administrator action for the audit log: what was done to which record, with what changed (never a secret). */
export interface AdminAction {
  /** dotted verb, e.g. `user.credit`, `user.groups.set`, `channel.update`, `order.recheck` */
  action: AuditAction;
  /** kind of record acted on, e.g. `user`, `channel`, `order` */
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
}

/** The actor of an /api call: the signed-in user, or the admin token by id and name. */
export function auditActorOfCaller(caller: {
  user: Pick<UserRecord, 'id' | 'email'> | undefined;
  adminToken?: Pick<AdminTokenRecord, 'id' | 'name'> | undefined;
}): AuditActor {
  if (caller.user)
    return { actorUserId: caller.user.id, actorLabel: caller.user.email, actorKind: 'user', actorId: null };
  return {
    actorUserId: null,
    actorLabel: caller.adminToken ? `admin token ${caller.adminToken.name}` : 'admin token',
    actorKind: 'admin_token',
    actorId: caller.adminToken?.id ?? null,
  };
}

/** The actor of a `gateway ...` command: the operating-system user who ran it. */
export function auditActorOfCommandLine(osUserName: string): AuditActor {
  return { actorUserId: null, actorLabel: `cli ${osUserName}`, actorKind: 'cli', actorId: osUserName };
}
