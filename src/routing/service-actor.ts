import { GatewayError } from '../core/gateway-error.js';
import type { NewAuditEntry } from '../storage/store-records.js';

/**
 * Who calls a routing or billing service, as its rules see it (accounts' AccountActor satisfies it): whether the
 * caller acts as an administrator, and how the audit log names it (user, admin token by id and name, or CLI user).
 */
export interface ServiceActor {
  /** true for admin users, admin tokens and the CLI */
  isAdmin: boolean;
  /** how the audit log names the actor */
  audit: Pick<NewAuditEntry, 'actorUserId' | 'actorLabel' | 'actorKind' | 'actorId'>;
}

/** Throws 403 `forbidden` unless the actor is an administrator. */
export function requireAdministratorActor(actor: Pick<ServiceActor, 'isAdmin'>): void {
  if (!actor.isAdmin) throw new GatewayError('forbidden', 'Only administrators may do this.');
}
