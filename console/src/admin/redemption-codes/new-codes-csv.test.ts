import { describe, expect, it } from 'vitest';
import { newCodesCsv } from './new-codes-csv';
import { redemptionCodesExportUrl, redemptionCodesQueryString } from './redemption-code-filters';

describe('newCodesCsv', () => {
  it('writes one row per code with the batch, exact amount, expiry and a quoted note', () => {
    const csv = newCodesCsv({
      batchId: 'rcb_1', amount: 10_500_000, count: 2, expiresAt: Date.UTC(2027, 0, 1), note: 'spring, "vip"',
      codes: [{ id: 'rcd_1', code: 'AAAA-BBBB', codePrefix: 'AAAA' }, { id: 'rcd_2', code: 'CCCC-DDDD', codePrefix: 'CCCC' }],
    });
    expect(csv).toBe(
      'code,id,batch_id,amount_micro_units,amount,expires_at,note\r\n' +
        'AAAA-BBBB,rcd_1,rcb_1,10500000,10.5,2027-01-01T00:00:00.000Z,"spring, ""vip"""\r\n' +
        'CCCC-DDDD,rcd_2,rcb_1,10500000,10.5,2027-01-01T00:00:00.000Z,"spring, ""vip"""\r\n',
    );
  });

  it('leaves expiry empty for codes that never expire and defuses a note a spreadsheet would run', () => {
    const csv = newCodesCsv({ batchId: 'rcb_2', amount: 1, count: 1, expiresAt: null, note: '=HYPERLINK("x")', codes: [{ id: 'rcd_3', code: 'EEEE', codePrefix: 'EE' }] });
    expect(csv.split('\r\n')[1]).toBe('EEEE,rcd_3,rcb_2,1,0.000001,,"\'=HYPERLINK(""x"")"');
  });
});

describe('the code list query', () => {
  it('sends the status and batch filters to the list and to the CSV export', () => {
    expect(redemptionCodesQueryString({ status: null, batchId: '' }, null)).toBe('limit=50');
    expect(redemptionCodesQueryString({ status: 'redeemed', batchId: ' rcb_1 ' }, '5:rcd_9')).toBe('status=redeemed&batch=rcb_1&limit=50&cursor=5%3Arcd_9');
    expect(redemptionCodesExportUrl({ status: 'active', batchId: 'rcb_1' })).toBe('/api/admin/redemption-codes?status=active&batch=rcb_1&format=csv');
  });
});
