/** English strings of the Redemption codes page. */
export const redemptionCodesEnglish = {
  title: 'Redemption codes',
} as const;
