import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../src/platform/secrets.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
});
afterAll(() => p.close());

describe('operator API: partners, apps, keys', () => {
  it('creates a partner with the documented defaults and reads it back', async () => {
    const res = await p.admin('POST', '/partners', { name: 'Acme Deliveries' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Acme Deliveries',
      status: 'active',
      production_active: false,
      credit_limit_ghs: 0,
      rate_limits: null,
    });
    expect(res.body.partner_id).toMatch(/^ptn_/);
    expect((await p.admin('GET', `/partners/${res.body.partner_id}`)).body).toEqual(res.body);
    const list = await p.admin('GET', '/partners?limit=200');
    expect(list.body.partners.map((x: { partner_id: string }) => x.partner_id)).toContain(
      res.body.partner_id,
    );
  });

  it('updates status, production access, credit limit and own rate limits', async () => {
    const { body: partner } = await p.admin('POST', '/partners', { name: 'Beta' });
    const res = await p.admin('PATCH', `/partners/${partner.partner_id}`, {
      status: 'suspended',
      production_active: true,
      credit_limit_ghs: 250.5,
      rate_limits: { reads_per_minute: 50, writes_per_minute: 10 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'suspended',
      production_active: true,
      credit_limit_ghs: 250.5,
      rate_limits: { reads_per_minute: 50, writes_per_minute: 10 },
    });
    const cleared = await p.admin('PATCH', `/partners/${partner.partner_id}`, {
      rate_limits: null,
    });
    expect(cleared.body.rate_limits).toBeNull();
    expect(cleared.body.credit_limit_ghs).toBe(250.5);
  });

  it('refuses invalid partner updates with VALIDATION_ERROR and unknown partners with PARTNER_NOT_FOUND', async () => {
    const { body: partner } = await p.admin('POST', '/partners', { name: 'Gamma' });
    for (const body of [
      { status: 'closed' },
      { credit_limit_ghs: -1 },
      { credit_limit_ghs: 1.234 },
      { rate_limits: { reads_per_minute: 0, writes_per_minute: 1 } },
      { name: 'renamed' },
    ]) {
      const res = await p.admin('PATCH', `/partners/${partner.partner_id}`, body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await p.admin('PATCH', '/partners/ptn_missing', { status: 'active' })).body.code).toBe(
      'PARTNER_NOT_FOUND',
    );
    expect((await p.admin('POST', '/partners', {})).body.details).toEqual([
      { field: 'name', issue: 'is required' },
    ]);
  });

  it('creates apps with a whsec_ webhook secret shown once', async () => {
    const { body: partner } = await p.admin('POST', '/partners', { name: 'Delta' });
    const res = await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
      name: 'Shop',
      webhook_url: 'https://example.com/hooks',
      return_url: 'https://example.com/done',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Shop',
      webhook_url: 'https://example.com/hooks',
      return_url: 'https://example.com/done',
    });
    expect(res.body.app_id).toMatch(/^app_/);
    expect(
      Buffer.from(res.body.webhook_secret.slice('whsec_'.length), 'base64').length,
    ).toBeGreaterThanOrEqual(24);
    const listed = await p.admin('GET', `/partners/${partner.partner_id}/apps`);
    expect(listed.body.apps[0]).not.toHaveProperty('webhook_secret');
    expect(
      (
        await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
          name: 'x',
          webhook_url: 'ftp://x',
        })
      ).status,
    ).toBe(400);
    expect((await p.admin('POST', '/partners/ptn_missing/apps', { name: 'x' })).body.code).toBe(
      'PARTNER_NOT_FOUND',
    );
  });

  it('creates keys per environment; stores only a hash of the key and a sealed secret', async () => {
    const s = await createPartner(p, { scopes: ['delivery:read', 'delivery:write'] });
    expect(s.apiKey).toMatch(/^pk_staging_[A-Za-z0-9_-]{32}$/);
    expect(s.signingSecret).toMatch(/^sk_staging_/);
    const [row] = await p.app.platform.db.query<{
      key_hash: string;
      signing_secret_sealed: string;
      key_hint: string;
    }>('select key_hash, signing_secret_sealed, key_hint from api_keys where id = $1', [s.keyId]);
    expect(row!.key_hash).toBe(hashApiKey(s.apiKey));
    expect(JSON.stringify(row)).not.toContain(s.apiKey);
    expect(JSON.stringify(row)).not.toContain(s.signingSecret);
    const listed = await p.admin('GET', `/apps/${s.appId}/keys`);
    expect(listed.body.keys[0]).toMatchObject({
      key_id: s.keyId,
      environment: 'staging',
      scopes: ['delivery:read', 'delivery:write'],
      revoked_at: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(s.apiKey);
  });

  it('refuses delivery:wallet:spend on a staging key (400) and production keys before activation (409)', async () => {
    const s = await createPartner(p);
    const spend = await p.admin('POST', `/apps/${s.appId}/keys`, {
      environment: 'staging',
      scopes: ['delivery:read', 'delivery:wallet:spend'],
    });
    expect([spend.status, spend.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    const prod = await p.admin('POST', `/apps/${s.appId}/keys`, {
      environment: 'production',
      scopes: ['delivery:read'],
    });
    expect([prod.status, prod.body.code]).toEqual([409, 'PRODUCTION_NOT_ACTIVE']);
    // Names the operator command (and call) that activates production.
    expect(prod.body.message).toContain(
      `partner-admin partners update ${s.partnerId} --production on`,
    );
    expect(prod.body.message).toContain(`PATCH /admin/v1/partners/${s.partnerId}`);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { production_active: true });
    const ok = await p.admin('POST', `/apps/${s.appId}/keys`, {
      environment: 'production',
      scopes: ['delivery:wallet:spend', 'delivery:wallet:topup'],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.api_key).toMatch(/^pk_production_/);
    const unknown = await p.admin('POST', `/apps/${s.appId}/keys`, {
      environment: 'staging',
      scopes: ['delivery:everything'],
    });
    expect(unknown.body.message).toMatch(/Unknown scope "delivery:everything"/);
    expect(
      (await p.admin('POST', '/apps/app_missing/keys', { environment: 'staging', scopes: ['*'] }))
        .body.code,
    ).toBe('APP_NOT_FOUND');
  });

  it('revokes keys (204, idempotent) and answers KEY_NOT_FOUND for unknown ones', async () => {
    const s = await createPartner(p);
    expect((await p.admin('DELETE', `/keys/${s.keyId}`)).status).toBe(204);
    expect((await p.admin('DELETE', `/keys/${s.keyId}`)).status).toBe(204);
    expect((await p.admin('DELETE', '/keys/key_missing')).body.code).toBe('KEY_NOT_FOUND');
  });

  it('refuses a missing or wrong operator token with INVALID_ADMIN_TOKEN', async () => {
    const res = await p.admin('POST', '/partners', { name: 'x' }, 'wrong-token-wrong-token');
    expect([res.status, res.body.code]).toEqual([401, 'INVALID_ADMIN_TOKEN']);
    const none = await p.fetch(`${p.url}/admin/v1/partners`);
    expect(none.status).toBe(401);
  });
});

describe('operator API without ADMIN_TOKEN', () => {
  it('is not mounted', async () => {
    const q = await startPlatform({ socket: false, env: { ADMIN_TOKEN: '' } });
    try {
      const res = await q.fetch(`${q.url}/admin/v1/partners`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
    } finally {
      await q.close();
    }
  });
});
