/** English strings of the Groups & prices page. */
export const groupsEnglish = {
  title: 'Groups & prices',
} as const;
