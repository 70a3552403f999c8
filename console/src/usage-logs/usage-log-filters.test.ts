import { describe, expect, it } from 'vitest';
import { buildUsageLogQuery, defaultUsageLogFilters, readUsageLogFilters, writeUsageLogFilters } from './usage-log-filters';

const now = Date.UTC(2026, 10, 23, 12);

describe('buildUsageLogQuery', () => {
  it('counts relative ranges back from now and sends only the filters that are set', () => {
    expect(buildUsageLogQuery(defaultUsageLogFilters, now, false)).toBe(`from=${now - 7 * 86_400_000}`);
    const query = new URLSearchParams(
      buildUsageLogQuery({ ...defaultUsageLogFilters, range: '1h', model: ' gpt-4o ', keyId: 'key_1', statusClass: '4xx', requestId: 'req_abc' }, now, false),
    );
    expect(Object.fromEntries(query)).toEqual({ from: String(now - 3_600_000), model: 'gpt-4o', keyId: 'key_1', statusClass: '4xx', requestId: 'req_abc' });
  });

  it('sends no time bound for all time, and the custom range as given in local time', () => {
    expect(buildUsageLogQuery({ ...defaultUsageLogFilters, range: 'all' }, now, false)).toBe('');
    const custom = new URLSearchParams(buildUsageLogQuery({ ...defaultUsageLogFilters, range: 'custom', from: '2026-11-01T00:00', to: '' }, now, false));
    expect(custom.get('from')).toBe(String(new Date(2026, 10, 1).getTime()));
    expect(custom.has('to')).toBe(false);
  });

  it('sends the user filter only on the all-logs page', () => {
    const filters = { ...defaultUsageLogFilters, range: 'all' as const, userId: 'usr_1' };
    expect(buildUsageLogQuery(filters, now, true)).toBe('userId=usr_1');
    expect(buildUsageLogQuery(filters, now, false)).toBe('');
  });
});

describe('the filters in the URL', () => {
  it('writes only what differs from the defaults and reads it back', () => {
    const filters = { ...defaultUsageLogFilters, range: '24h' as const, requestId: 'req_1', statusClass: '5xx' as const };
    const search = writeUsageLogFilters(filters);
    expect(search).toEqual({ range: '24h', requestId: 'req_1', statusClass: '5xx' });
    expect(readUsageLogFilters(search)).toEqual(filters);
    expect(writeUsageLogFilters(defaultUsageLogFilters)).toEqual({});
  });

  it('ignores unknown ranges and status classes, and reads numbers the router parsed', () => {
    expect(readUsageLogFilters({ range: 'forever', statusClass: '9xx', keyId: 42 })).toEqual({ ...defaultUsageLogFilters, keyId: '42' });
  });
});
