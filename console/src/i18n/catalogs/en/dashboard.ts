/** English strings of the Dashboard page. */
export const dashboardEnglish = {
  title: 'Dashboard',
} as const;
