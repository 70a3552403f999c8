/**
 * Every action the gateway writes to the audit log. Writes are typed by it, so a new action must be listed here,
 * and the console's audit-log labels are checked against this list (console/src/admin/audit-log).
 */
export const auditActions = [
  'user.create',
  'user.credit',
  'user.limits.set',
  'user.groups.set',
  'user.disable',
  'user.enable',
  'price.set',
  'price.delete',
  'group.create',
  'group.update',
  'group.price-ratio.set',
  'catalog.put',
  'catalog.delete',
  'key.update',
  'channel.create',
  'channel.update',
  'channel.enable',
  'channel.disable',
  'channel.delete',
  'channel.test',
  'order.recheck',
  'order.refund',
  'order.dispute',
  'redemption.batch.create',
  'redemption.batch.disable',
  'redemption.code.disable',
  'admin-token.revoke',
  'identity.link',
] as const;

/** One action the audit log records, e.g. `user.credit`. */
export type AuditAction = (typeof auditActions)[number];
