import { ChannelHealth } from './channel-health.js';
import type { ChannelHealthSettings } from '../../config/channel-health-settings.js';

/** The channel breakers of a running gateway and the clock they are fed and read at. */
export interface ChannelHealthService {
  breakers: ChannelHealth;
  /** Unix milliseconds; tests inject one to move through cool-downs without waiting */
  clock: () => number;
}

/** One `ChannelHealth` for the process, on `clock` (Unix milliseconds). */
export function createChannelHealthService(settings: ChannelHealthSettings, clock: () => number): ChannelHealthService {
  return { breakers: new ChannelHealth(settings), clock };
}
