/** English strings of the Audit log page. */
export const auditLogEnglish = {
  title: 'Audit log',
} as const;
