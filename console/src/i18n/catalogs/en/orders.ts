/** English strings of the Orders page. */
export const ordersEnglish = {
  title: 'Orders',
} as const;
