import type { Catalog } from '../en';

/** Simplified Chinese strings of the Audit log page. */
export const auditLogChinese: Catalog['auditLog'] = {
  title: '审计日志',
};
