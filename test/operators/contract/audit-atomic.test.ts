import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createVendor, vendorBody } from '../../catalog/helpers.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type TestPlatform,
} from '../../helpers/harness.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

const HEALTH = '/api/v1/delivery/health';
const db = () => p.app.platform.db;
/** The audit log refuses every entry, as a full disk or a crash before the entry is written would. */
const refuseAudit = () =>
  db().exec(`
    create or replace function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused (test)'; end $$;
    create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit();
  `);
afterEach(() => db().exec('drop trigger if exists refuse_audit on audit_log'));

const audits = () => countRows(p, 'select count(*)::int as n from audit_log');

describe('operator API changes commit only with their audit entry', () => {
  it('rolls back a partner suspension, credit limit and rate limits whose audit entry fails', async () => {
    const partner = await createPartner(p);
    await refuseAudit();
    const before = await audits();
    for (const body of [
      { status: 'suspended' },
      { credit_limit_ghs: 500 },
      { rate_limits: { reads_per_minute: 5, writes_per_minute: 5 } },
      { production_active: true },
    ]) {
      const res = await p.admin('PATCH', `/partners/${partner.partnerId}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(500);
    }
    const [row] = await db().query<Record<string, unknown>>(
      'select status, credit_limit_pesewas, reads_per_minute, production_active from partners where id = $1',
      [partner.partnerId],
    );
    expect(row).toMatchObject({
      status: 'active',
      credit_limit_pesewas: 0,
      reads_per_minute: null,
      production_active: false,
    });
    expect(await audits()).toBe(before);
    // The partner's key still works: the refused suspension never reached the key cache either.
    expect((await partner.client.send('GET', HEALTH)).status).toBe(200);
  });

  it('rolls back key creation and revocation whose audit entry fails', async () => {
    const partner = await createPartner(p);
    await refuseAudit();
    const keys = await countRows(p, 'select count(*)::int as n from api_keys where app_id = $1', [
      partner.appId,
    ]);
    expect(
      (
        await p.admin('POST', `/apps/${partner.appId}/keys`, {
          environment: 'staging',
          scopes: ['*'],
        })
      ).status,
    ).toBe(500);
    expect(
      await countRows(p, 'select count(*)::int as n from api_keys where app_id = $1', [
        partner.appId,
      ]),
    ).toBe(keys);
    expect((await p.admin('DELETE', `/keys/${partner.keyId}`)).status).toBe(500);
    expect(
      await countRows(
        p,
        'select count(*)::int as n from api_keys where id = $1 and revoked_at is null',
        [partner.keyId],
      ),
    ).toBe(1);
  });

  it('rolls back vendor changes whose audit entry fails', async () => {
    const vendor = await createVendor(p);
    await refuseAudit();
    const vendors = await countRows(p, 'select count(*)::int as n from vendors');
    expect((await p.admin('POST', '/vendors', vendorBody({ name: 'Never Saved' }))).status).toBe(
      500,
    );
    expect(await countRows(p, 'select count(*)::int as n from vendors')).toBe(vendors);
    expect(
      (await p.admin('PATCH', `/vendors/${vendor.vendor_id}`, { commission_rate: 0.3 })).status,
    ).toBe(500);
    expect((await p.admin('GET', `/vendors/${vendor.vendor_id}`)).body.commission_rate).toBe(0.1);
  });

  it('still answers and records a change made outside one transaction (webhook URL checks resolve DNS)', async () => {
    const partner = await createPartner(p);
    await refuseAudit();
    const res = await p.admin('PATCH', `/apps/${partner.appId}`, { name: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Renamed');
    await db().exec('drop trigger refuse_audit on audit_log');
    const renamed = await p.admin('PATCH', `/apps/${partner.appId}`, { name: 'Renamed again' });
    expect(renamed.status).toBe(200);
    expect(
      (await p.admin('GET', `/audit?target_id=${partner.appId}&action=app.update`)).body.entries,
    ).toHaveLength(1);
  });

  it('commits the change and its entry together when the entry is written', async () => {
    const partner = await createPartner(p);
    const before = await audits();
    expect(
      (await p.admin('PATCH', `/partners/${partner.partnerId}`, { status: 'suspended' })).status,
    ).toBe(200);
    expect(await audits()).toBe(before + 1);
    expect((await partner.client.send('GET', HEALTH)).status).toBe(403);
  });
});
