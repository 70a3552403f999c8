/** English strings of the Settings page. */
export const settingsEnglish = {
  title: 'Settings',
} as const;
