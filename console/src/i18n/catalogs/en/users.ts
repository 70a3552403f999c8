/** English strings of the Users page. */
export const usersEnglish = {
  title: 'Users',
} as const;
