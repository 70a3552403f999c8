/** English strings of the Top-up page. */
export const topUpEnglish = {
  title: 'Top-up',
} as const;
