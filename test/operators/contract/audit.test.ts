import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { operatorWithToken, PASSWORD } from '../helpers.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

const search = async (query: string) => {
  const res = await p.admin('GET', `/audit?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { entries: any[]; next_cursor: string | null };
};

describe('the audit log', () => {
  it('records a partner PATCH by an operator token with its actor, target, before and after', async () => {
    const op = await operatorWithToken(p, ['support']);
    const partner = await createPartner(p);
    const res = await p.fetch(`${p.url}/admin/v1/partners/${partner.partnerId}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${op.token}`,
        'content-type': 'application/json',
        'user-agent': 'audit-test/1.0',
      },
      body: JSON.stringify({ status: 'suspended' }),
    });
    expect(res.status).toBe(200);
    const { entries } = await search(`target_id=${partner.partnerId}&action=partner.update`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      audit_id: expect.stringMatching(/^aud_/),
      actor: { kind: 'operator', id: op.id },
      action: 'partner.update',
      target: { type: 'partner', id: partner.partnerId },
      before: { status: 'active' },
      after: { request: { status: 'suspended' }, response: { status: 'suspended' } },
      ip: '127.0.0.1',
      user_agent: 'audit-test/1.0',
    });
    expect((await search(`actor_id=${op.id}`)).entries.map((e) => e.action)).toEqual([
      'partner.update',
    ]);
  });

  it('records the ADMIN_TOKEN as admin_token, and creations with the new resource as target', async () => {
    const created = await p.admin('POST', '/partners', { name: 'Audited Ltd' });
    const { entries } = await search(`target_id=${created.body.partner_id}`);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'admin_token', id: 'admin_token' },
      action: 'partner.create',
      target: { type: 'partner', id: created.body.partner_id },
    });
  });

  it('does not record failed calls', async () => {
    const before = (await search('action=partner.update&limit=200')).entries.length;
    expect((await p.admin('PATCH', '/partners/ptn_nope', { status: 'suspended' })).status).toBe(
      404,
    );
    expect((await p.admin('PATCH', '/partners/ptn_nope', { status: 'gone' })).status).toBe(400);
    expect((await search('action=partner.update&limit=200')).entries.length).toBe(before);
  });

  it('never stores secrets: passwords, tokens, keys, signing and webhook secrets', async () => {
    const partner = await createPartner(p);
    const op = await operatorWithToken(p, ['support']);
    const totp = await p.admin('POST', `/operators/${op.id}/totp`);
    const rows = await p.app.platform.db.query<{ doc: string }>(
      `select coalesce(before::text, '') || coalesce(after::text, '') as doc from audit_log`,
    );
    const all = rows.map((r) => r.doc).join('\n');
    for (const secret of [
      PASSWORD,
      op.token,
      partner.apiKey,
      partner.signingSecret,
      totp.body.totp_secret,
    ])
      expect(all).not.toContain(secret);
    expect(all).toContain('[redacted]');
    const keyEntry = (await search(`target_id=${partner.keyId}&action=key.create`)).entries[0];
    expect(keyEntry.target).toEqual({ type: 'key', id: partner.keyId });
    expect(keyEntry.after.response).toMatchObject({
      api_key: '[redacted]',
      signing_secret: '[redacted]',
      key_id: partner.keyId,
    });
  });

  it('pages newest first with a cursor and filters by date range', async () => {
    const first = await search('limit=2');
    const second = await search(`limit=2&cursor=${first.next_cursor}`);
    expect(first.entries).toHaveLength(2);
    const ids = [...first.entries, ...second.entries].map((e) => e.audit_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.entries[0].at >= second.entries[0].at).toBe(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await search(`from=${encodeURIComponent(future)}`)).entries).toEqual([]);
    expect((await search(`to=${encodeURIComponent(future)}&limit=1`)).entries).toHaveLength(1);
    expect((await p.admin('GET', '/audit?cursor=bm90LWEtY3Vyc29y')).body.code).toBe(
      'VALIDATION_ERROR',
    );
    expect((await p.admin('GET', '/audit?from=yesterday')).status).toBe(400);
  });

  it('names the action of every change an operator route makes', () => {
    const unnamed = p.app.platform.adminRoutes.filter(
      (r) => r.method !== 'GET' && !r.audit?.action && !r.audit?.recordedByService,
    );
    expect(unnamed.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    for (const r of p.app.platform.adminRoutes)
      if (r.audit?.action) expect(r.audit.action, r.url).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });

  it('is append-only: the database refuses updates, deletes and truncation', async () => {
    const { db } = p.app.platform;
    await expect(db.query(`update audit_log set action = 'forged'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`delete from audit_log`)).rejects.toThrow(/append-only/);
    await expect(db.query(`truncate audit_log`)).rejects.toThrow(/append-only/);
    expect((await search('limit=1')).entries).toHaveLength(1);
  });
});
