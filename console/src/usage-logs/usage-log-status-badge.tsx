import { Badge } from '@mantine/core';
import type { UsageLog } from './usage-logs-types';

/** The HTTP status a request got, green for 2xx, orange for 4xx, red otherwise, with its error code when it failed. */
export function UsageLogStatusBadge({ log }: { log: Pick<UsageLog, 'status' | 'errorCode'> }) {
  const color = log.status < 300 ? 'teal' : log.status < 500 ? 'orange' : 'red';
  return (
    <Badge color={color} variant="light" style={{ minWidth: 'max-content', textTransform: 'none' }}>
      {log.errorCode ? `${log.status} · ${log.errorCode}` : String(log.status)}
    </Badge>
  );
}
