/** The actions the gateway records, for the action filter's suggestions (docs/API.md); a test checks it against the server's list. */
export const knownAuditActions = [
  'user.create', 'user.credit', 'user.limits.set', 'user.groups.set', 'user.disable', 'user.enable',
  'price.set', 'price.delete', 'group.create', 'group.update', 'group.price-ratio.set', 'group.delete',
  'catalog.put', 'catalog.delete',
  'key.create', 'key.update', 'key.disable', 'key.enable', 'key.delete',
  'channel.create', 'channel.update', 'channel.enable', 'channel.disable', 'channel.delete', 'channel.test',
  'order.recheck', 'order.refund', 'order.dispute', 'redemption.batch.create', 'redemption.batch.disable',
  'redemption.code.disable', 'admin-token.create', 'admin-token.revoke',
  'identity.link', 'user.password.change', 'two_factor.enable', 'two_factor.disable', 'two_factor.recovery_code.use',
  'two_factor.recovery_codes.regenerate',
] as const;

/** The catalog key of an action's label: `user.price-ratio.set` → `auditLog.actions.user_price_ratio_set`. */
export function auditActionCatalogKey(action: string): string {
  return `auditLog.actions.${action.replace(/[^a-zA-Z0-9]/g, '_')}`;
}

/** The query string of GET /api/admin/audit-log for the filters and page: only what is set, trimmed. */
export function buildAuditLogQuery(filters: { action: string; targetId: string }, before: number | null, limit: number): string {
  const query = new URLSearchParams();
  if (filters.action.trim() !== '') query.set('action', filters.action.trim());
  if (filters.targetId.trim() !== '') query.set('targetId', filters.targetId.trim());
  if (before !== null) query.set('before', String(before));
  query.set('limit', String(limit));
  return query.toString();
}
