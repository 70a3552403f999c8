/** The query keys of the Channels page. */
export const channelsQueryKeys = {
  channels: ['admin', 'channels'],
  presets: ['admin', 'channel-presets'],
} as const;
