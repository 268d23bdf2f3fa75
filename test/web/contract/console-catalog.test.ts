import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../catalog/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf } from '../../helpers/web.ts';

describe('the catalog in the console: vendors’ syndication, products’ active flag and stock', () => {
  let p: TestPlatform;
  let now = Date.now();
  let vendorId: string;
  let productId: string;
  let variantId: string;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const vendor = await createVendor(p, { name: 'Kente <House>' });
    vendorId = vendor.vendor_id;
    const product = await createProduct(p, vendorId);
    productId = product.product_id;
    variantId = product.variants[0].variant_id;
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));
  const listed = async () =>
    (
      await p.app.platform.db.query<{ listed: boolean; active: boolean }>(
        'select listed, active from products where id = $1',
        [productId],
      )
    )[0]!;
  const stock = async () =>
    (
      await p.app.platform.db.query<{ stock: number }>(
        'select stock from product_variants where id = $1',
        [variantId],
      )
    )[0]!.stock;

  it('lists vendors (escaped) and products; support turns syndication off and on through CatalogService, audited', async () => {
    const { web, op } = await signedIn(['support']);
    const page = await web.get('/console/catalog');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Kente &lt;House&gt;');
    expect(page.text).toContain('10.00 %');
    expect((await web.get(`/console/catalog/products?vendor=${vendorId}`)).text).toContain(
      'Handwoven kente stole',
    );
    const off = await web.post(`/console/catalog/vendors/${vendorId}/syndication`, {
      _csrf: csrfOf(page.text),
      syndicatable: 'false',
    });
    expect(off.status).toBe(200);
    expect((await listed()).listed).toBe(false);
    expect(
      (
        await web.post(`/console/catalog/vendors/${vendorId}/syndication`, {
          _csrf: csrfOf(page.text),
          syndicatable: 'true',
        })
      ).status,
    ).toBe(200);
    expect((await listed()).listed).toBe(true);
    const audit = await audited(p, { action: 'vendor.update', target_id: vendorId });
    expect(audit.map((e) => ({ actor_id: e.actor.id }))).toEqual([
      { actor_id: op.id },
      { actor_id: op.id },
    ]);
  });

  it('sets stock and the active flag, audited; refuses hostile values with 400 and unknown ids with 404', async () => {
    const { web, op } = await signedIn(['admin']);
    const page = await web.get(`/console/catalog/products/${productId}`);
    const csrf = csrfOf(page.text);
    const set = await web.post(
      `/console/catalog/products/${productId}/variants/${variantId}/stock`,
      { _csrf: csrf, stock: '42' },
    );
    expect(set.status).toBe(200);
    expect(await stock()).toBe(42);
    for (const bad of ['-1', '1.5', '', '1e3', '<b>', '1000001']) {
      expect(
        (
          await web.post(`/console/catalog/products/${productId}/variants/${variantId}/stock`, {
            _csrf: csrf,
            stock: bad,
          })
        ).status,
        bad,
      ).toBe(400);
    }
    expect(await stock()).toBe(42);
    expect(
      (
        await web.post(
          `/console/catalog/products/${productId}/variants/var_00000000000000000000000000/stock`,
          { _csrf: csrf, stock: '1' },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await web.post(`/console/catalog/products/prd_00000000000000000000000000/active`, {
          _csrf: csrf,
          active: 'false',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await web.post(`/console/catalog/products/${productId}/active`, {
          _csrf: csrf,
          active: 'maybe',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await web.post(`/console/catalog/products/${productId}/active`, {
          _csrf: csrf,
          active: 'false',
        })
      ).status,
    ).toBe(200);
    expect(await listed()).toEqual({ listed: false, active: false });
    expect((await web.get('/console/catalog?after=x%27')).status).toBe(400);
    expect((await web.get('/console/catalog/products?vendor=%00')).status).toBe(400);
    expect((await web.get('/console/catalog/products/prd_x')).status).toBe(404);
    const audit = await audited(p, { action: 'product.update', target_id: productId });
    expect(audit.map((e) => ({ actor_id: e.actor.id }))).toEqual([
      { actor_id: op.id },
      { actor_id: op.id },
    ]);
  });

  it('finance reads but gets 403 on changes and sees no form; CSRF is required', async () => {
    const { web } = await signedIn(['finance']);
    const page = await web.get(`/console/catalog/products/${productId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/stock"');
    const csrf = csrfOf(page.text);
    expect(
      (
        await web.post(`/console/catalog/products/${productId}/variants/${variantId}/stock`, {
          _csrf: csrf,
          stock: '1',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await web.post(`/console/catalog/vendors/${vendorId}/syndication`, {
          _csrf: csrf,
          syndicatable: 'false',
        })
      ).status,
    ).toBe(403);
    const support = await signedIn(['support']);
    expect(
      (
        await support.web.post(
          `/console/catalog/products/${productId}/variants/${variantId}/stock`,
          { stock: '1' },
        )
      ).status,
    ).toBe(403);
    expect(await stock()).toBe(42);
  });
});
