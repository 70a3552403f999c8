/** English strings of the Models & prices page. */
export const modelsEnglish = {
  title: 'Models & prices',
} as const;
