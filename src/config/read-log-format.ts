/** How the log is written: `pretty` (coloured lines for people), `json` (one object a line), or `auto`. */
export type LogFormatSetting = 'auto' | 'json' | 'pretty';

/** Reads GATEWAY_LOG_FORMAT: `json` or `pretty` force a format; unset, empty or `auto` pick pretty on a terminal only. */
export function readLogFormat(environment: NodeJS.ProcessEnv): LogFormatSetting {
  const raw = environment.GATEWAY_LOG_FORMAT;
  if (raw === undefined || raw === '') return 'auto';
  const value = raw.toLowerCase();
  if (value === 'auto' || value === 'json' || value === 'pretty') return value;
  throw new Error(`GATEWAY_LOG_FORMAT must be json, pretty or auto, got "${raw}"`);
}
