import type { RepositoryContext } from './repository-context.js';
import { auditActorKinds, type AuditEntryFilter, type AuditEntryRecord, type NewAuditEntry } from './store-records.js';

/** The append-only log of administrator actions; not a routing change. */
export interface AuditRepository {
  /** appends one administrator action to the audit log (not a routing change) */
  recordAuditEntry(entry: NewAuditEntry): Promise<AuditEntryRecord>;
  /** audit entries, newest first */
  listAuditEntries(filter: AuditEntryFilter): Promise<AuditEntryRecord[]>;
}

/** The audit repository over the gateway's database. */
export function createAuditRepository({ database, clock, createId }: RepositoryContext): AuditRepository {
  return {
    async recordAuditEntry(entry) {
      const record: AuditEntryRecord = { ...entry, id: createId('aud'), createdAt: clock() };
      await database
        .insertInto('audit_log')
        .values({
          id: record.id,
          created_at: record.createdAt,
          actor_user_id: record.actorUserId,
          actor_label: record.actorLabel,
          actor_kind: record.actorKind,
          actor_id: record.actorId,
          action: record.action,
          target_type: record.targetType,
          target_id: record.targetId,
          details: JSON.stringify(record.details),
        })
        .execute();
      return record;
    },

    async listAuditEntries(filter) {
      let query = database
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.max(1, Math.min(filter.limit, 500)));
      if (filter.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
      if (filter.before !== undefined) query = query.where('created_at', '<', filter.before);
      const rows = await query.execute();
      return rows.map((row) => ({
        id: row.id,
        createdAt: Number(row.created_at),
        actorUserId: row.actor_user_id,
        actorLabel: row.actor_label,
        actorKind: auditActorKinds.find((kind) => kind === row.actor_kind) ?? 'user',
        actorId: row.actor_id,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        details: JSON.parse(row.details) as Record<string, unknown>,
      }));
    },
  };
}
