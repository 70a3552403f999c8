import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeGatewayApi, type FakeRoutes } from '../../test/fake-gateway-api';
import { renderConsole } from '../../test/render-console';
import { auditActionCatalogKey, buildAuditLogQuery, knownAuditActions } from './audit-action-label';
import type { AuditEntry } from './audit-log-types';
import { summarizeDetails } from './audit-details';
import { english } from '../../i18n/catalogs/en';
import { simplifiedChinese } from '../../i18n/catalogs/zh-cn';
// The server's own list of the actions it writes (its audit writes are typed by it).
import { auditActions } from '../../../../src/storage/audit-actions';

const admin = { user: { id: 'u1', email: 'root@example.test', displayName: 'Root', role: 'admin', status: 'active', createdAt: 0 }, isAdmin: true, balance: null };
const credit: AuditEntry = {
  id: 'aud_1', createdAt: Date.UTC(2026, 10, 23, 10), actorUserId: 'u1', actorLabel: 'root@example.test', actorKind: 'user', actorId: null, action: 'user.credit', targetType: 'user', targetId: 'usr_42',
  details: { kind: 'adjustment', amount: 5_000_000, description: 'goodwill' },
};
const unknown: AuditEntry = { ...credit, id: 'aud_2', action: 'future.thing', targetType: 'widget', targetId: null, details: {} };

afterEach(() => vi.unstubAllGlobals());

function installApi(routes: FakeRoutes): string[] {
  installFakeGatewayApi(routes);
  const fake = globalThis.fetch;
  const urls: string[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    urls.push(String(input));
    return fake(input, init);
  });
  return urls;
}

describe('the audit log page', () => {
  it('shows time, actor, the translated action with its raw name, target and expandable details', async () => {
    installApi({ 'GET /api/me': [200, admin], 'GET /api/admin/audit-log': [200, { data: [credit, unknown], nextBefore: null }] });
    renderConsole('/admin/audit-log');
    const row = await screen.findByTestId('audit-row-aud_1');
    expect(within(row).getByText('root@example.test')).toBeTruthy();
    expect(within(row).getByText('Credited a balance')).toBeTruthy();
    expect(within(row).getByText('user.credit')).toBeTruthy();
    expect(within(row).getByText('usr_42')).toBeTruthy();
    expect(within(row).getByText('kind: "adjustment", amount: 5000000, description: "goodwill"')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Show details' }));
    expect(within(row).getByText(/"description": "goodwill"/)).toBeTruthy();
    // An action this console does not know still shows, by its raw name.
    const other = screen.getByTestId('audit-row-aud_2');
    expect(within(other).getByText('future.thing')).toBeTruthy();
    expect(within(other).getByText('no details')).toBeTruthy();
  });

  it('filters by action and target, and pages on with nextBefore', async () => {
    const urls = installApi({
      'GET /api/me': [200, admin],
      'GET /api/admin/audit-log': (() => {
        let calls = 0;
        return () => (++calls === 1 ? [200, { data: [credit], nextBefore: credit.createdAt }] : [200, { data: [unknown], nextBefore: null }]);
      })(),
    });
    renderConsole('/admin/audit-log');
    await screen.findByTestId('audit-row-aud_1');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByTestId('audit-row-aud_2');
    expect(urls.at(-1)).toBe(`/api/admin/audit-log?before=${credit.createdAt}&limit=50`);

    await userEvent.type(screen.getByRole('combobox', { name: 'Action' }), 'user.credit');
    await userEvent.type(screen.getByRole('textbox', { name: 'Target ID' }), ' usr_42 ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(urls.at(-1)).toBe('/api/admin/audit-log?action=user.credit&targetId=usr_42&limit=50'));
  });

  it('shows the empty state and the gateway’s error', async () => {
    installApi({ 'GET /api/me': [200, admin], 'GET /api/admin/audit-log': [200, { data: [], nextBefore: null }] });
    const view = renderConsole('/admin/audit-log');
    expect(await screen.findByText('No administrator actions match.')).toBeTruthy();
    view.unmount();
    installApi({ 'GET /api/me': [200, admin], 'GET /api/admin/audit-log': [500, { error: { message: 'database is down', code: 'server_error' } }] });
    renderConsole('/admin/audit-log');
    expect((await screen.findByRole('alert')).textContent).toContain('database is down');
  });
});

describe('audit log helpers', () => {
  it('has a label in English and Chinese for every action the gateway writes', () => {
    expect([...knownAuditActions].sort()).toEqual([...auditActions].sort());
    // The catalogs themselves, not i18next: it would fall back to English for a missing Chinese label.
    for (const [language, catalog] of [['en', english], ['zh-CN', simplifiedChinese]] as const) {
      const labels: Record<string, string | undefined> = catalog.auditLog.actions;
      for (const action of auditActions) expect(labels[auditActionCatalogKey(action).replace('auditLog.actions.', '')], `${language}: ${action}`).toBeTruthy();
    }
  });

  it('builds the query from what is set and summarizes details on one line', () => {
    expect(buildAuditLogQuery({ action: '', targetId: '' }, null, 10)).toBe('limit=10');
    expect(summarizeDetails({ groups: ['a', 'b'], limits: { rpm: 1 }, ok: true })).toBe('groups: [2], limits: {…}, ok: true');
    expect(summarizeDetails({ text: 'x'.repeat(100) }, 20)).toHaveLength(20);
  });
});
