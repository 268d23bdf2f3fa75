import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { dashboardKey, verifiedOwner, type WebClient } from '../../helpers/web.ts';

describe('dashboard apps: keys shown once, revocation, webhook URL and secret', () => {
  let p: TestPlatform;
  let web: WebClient;
  let key: Awaited<ReturnType<typeof dashboardKey>>;
  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    ({ web } = await verifiedOwner(p));
    key = await dashboardKey(web);
  });
  afterAll(async () => {
    await p?.close();
  });

  it('shows the key and its secret once: the app page never shows them again', async () => {
    const page = await web.get(`/dashboard/apps/${key.appId}`);
    expect(page.text).not.toContain(key.apiKey);
    expect(page.text).not.toContain(key.signingSecret);
    expect(page.text).toContain(`${key.apiKey.slice(0, 15)}…${key.apiKey.slice(-4)}`);
  });

  it('revokes a key: signed calls with it are refused from then on', async () => {
    const client = new PartnerClient({
      apiKey: key.apiKey,
      signingSecret: key.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
    });
    expect(
      (await client.send('POST', '/api/v1/delivery/orders.create', { body: orderBody() })).status,
    ).toBe(201);
    const revoked = await web.submit(
      `/dashboard/apps/${key.appId}`,
      `/dashboard/apps/${key.appId}/keys/${key.keyId}/revoke`,
      {},
    );
    expect(revoked.text).toContain('Key revoked');
    await new Promise((r) => setTimeout(r, 2100)); // past the auth cache of AUTH_CACHE_TTL_MS
    const refused = await client
      .send('POST', '/api/v1/delivery/orders.create', { body: orderBody() })
      .catch((err: { status?: number }) => err);
    expect((refused as { status?: number }).status).toBe(401);
  });

  it('sets and clears the webhook URL, refusing one events could never reach, with the reason', async () => {
    const bad = await web.submit(
      `/dashboard/apps/${key.appId}`,
      `/dashboard/apps/${key.appId}/webhook`,
      { webhook_url: 'http://10.0.0.5/hook' },
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/class="error"/);
    expect(await p.app.platform.accounts.getApp(key.appId)).toMatchObject({ webhook_url: null });
    const good = await web.submit(
      `/dashboard/apps/${key.appId}`,
      `/dashboard/apps/${key.appId}/webhook`,
      { webhook_url: 'https://hooks.example.com/partner' },
    );
    expect(good.text).toContain('Webhook URL saved');
    expect(good.text).toContain('value="https://hooks.example.com/partner"');
    const cleared = await web.submit(
      `/dashboard/apps/${key.appId}`,
      `/dashboard/apps/${key.appId}/webhook`,
      { webhook_url: '' },
    );
    expect(cleared.text).toContain('Webhook URL removed');
  });

  it('rotates the webhook secret, showing the new one once and keeping the previous one for 24 hours', async () => {
    const rotated = await web.submit(
      `/dashboard/apps/${key.appId}`,
      `/dashboard/apps/${key.appId}/webhook-secret`,
      {},
    );
    const secret = /id="webhook-secret">(whsec_[^<]+)</.exec(rotated.text)![1]!;
    expect(rotated.text).toContain('previous one keeps signing until');
    const [row] = await p.app.platform.db.query<{ until: Date }>(
      'select previous_webhook_secret_expires_at as until from apps where id = $1',
      [key.appId],
    );
    expect(new Date(row!.until).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect((await web.get(`/dashboard/apps/${key.appId}`)).text).not.toContain(secret);
  });
});
