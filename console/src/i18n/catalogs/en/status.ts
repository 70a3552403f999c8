/** English strings of the Status page. */
export const statusEnglish = {
  title: 'Status',
} as const;
