// The /api answer the audit log page reads (docs/API.md: GET /api/admin/audit-log).

/** One administrator action. */
export interface AuditEntry {
  id: string;
  /** Unix milliseconds */
  createdAt: number;
  actorUserId: string | null;
  /** the admin's email, `admin token <name>`, `cli <OS user>` or `<method> webhook` */
  actorLabel: string;
  /** how the actor acted */
  actorKind: 'user' | 'admin_token' | 'cli' | 'webhook';
  /** the admin token's id or the CLI's OS user name; null for a signed-in user */
  actorId: string | null;
  /** dotted verb, e.g. `user.credit` */
  action: string;
  targetType: string;
  targetId: string | null;
  /** what changed; never a secret */
  details: Record<string, unknown>;
}

/** One page of GET /api/admin/audit-log. */
export interface AuditLogPage {
  data: AuditEntry[];
  /** pass as `before` for the next (older) page; null on the last page */
  nextBefore: number | null;
}
