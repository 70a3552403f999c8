/** English strings of the Channels page. */
export const channelsEnglish = {
  title: 'Channels',
} as const;
