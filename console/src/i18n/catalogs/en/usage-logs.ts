/** English strings of the Usage logs pages. */
export const usageLogsEnglish = {
  title: 'Usage logs',
} as const;
