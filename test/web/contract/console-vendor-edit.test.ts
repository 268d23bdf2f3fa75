import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../catalog/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf } from '../../helpers/web.ts';

/** The edit form's fields as the page fills them for a vendor made by vendorBody(). */
const FORM = {
  syndicatable: 'true',
  commission_rate: '0.1',
  contact_person: 'Efua Asante',
  contact_phone: '+233245550101',
  address: 'Makola Market, Accra',
  lat: '5.556',
  lng: '-0.179',
};

describe('editing a vendor in the console: commission, pickup point, syndication', () => {
  let p: TestPlatform;
  let now = Date.now();
  let vendorId: string;
  let productId: string;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    vendorId = (await createVendor(p, { name: 'Kente <House>' })).vendor_id;
    productId = (await createProduct(p, vendorId)).product_id;
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));
  const row = async () =>
    (
      await p.app.platform.db.query<any>(
        'select syndicatable, commission_bps, pickup_contact_person, pickup_contact_phone, pickup_address, pickup_lat, pickup_lng, updated_at from vendors where id = $1',
        [vendorId],
      )
    )[0];
  const audits = () => audited(p, { action: 'vendor.update', target_id: vendorId });
  const listed = async () =>
    (
      await p.app.platform.db.query<{ listed: boolean }>(
        'select listed from products where id = $1',
        [productId],
      )
    )[0]!.listed;

  it('shows the vendor with its form filled in; an admin saves commission, pickup point and syndication, audited before and after', async () => {
    const { web, op } = await signedIn(['admin']);
    const page = await web.get(`/console/catalog/vendors/${vendorId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Kente &lt;House&gt;</h1>');
    for (const [name, value] of Object.entries(FORM).filter(([k]) => k !== 'syndicatable'))
      expect(page.text, name).toMatch(
        new RegExp(`name="${name}"[^>]* value="${value.replace('+', '\\+')}"`),
      );
    expect(page.text).toContain('<option value="true" selected>on</option>');
    expect((await web.get('/console/catalog')).text).toContain(
      `href="/console/catalog/vendors/${vendorId}"`,
    );
    const saved = await web.post(`/console/catalog/vendors/${vendorId}`, {
      _csrf: csrfOf(page.text),
      ...FORM,
      syndicatable: 'false',
      commission_rate: '0.125',
      contact_person: '  Yaw Boateng ',
      contact_phone: '020 111 2233',
      address: 'Kejetia Market, Kumasi',
      lat: '6.6966',
      lng: '-1.6244',
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Kente &lt;House&gt;: saved.');
    expect(saved.text).toContain('id="vendor-commission">12.50 %<');
    expect(await row()).toMatchObject({
      syndicatable: false,
      commission_bps: 1250,
      pickup_contact_person: 'Yaw Boateng',
      pickup_contact_phone: '+233201112233',
      pickup_address: 'Kejetia Market, Kumasi',
      pickup_lat: 6.6966,
      pickup_lng: -1.6244,
    });
    // Syndication off unlisted the vendor's products, as the operator API's PATCH does.
    expect(await listed()).toBe(false);
    // The operator API reads the same vendor.
    expect((await p.admin('GET', `/vendors/${vendorId}`)).body).toMatchObject({
      commission_rate: 0.125,
      syndicatable: false,
      pickup: { contact_phone: '+233201112233', coordinates: { lat: 6.6966, lng: -1.6244 } },
    });
    const [entry] = await audits();
    expect(entry!.actor.id).toBe(op.id);
    expect(entry!.before).toMatchObject({
      commission_rate: 0.1,
      syndicatable: true,
      pickup: {
        contact_person: 'Efua Asante',
        address: 'Makola Market, Accra',
        coordinates: { lat: 5.556, lng: -0.179 },
      },
    });
    expect(entry!.after).toMatchObject({
      commission_rate: 0.125,
      syndicatable: false,
      pickup: {
        contact_person: 'Yaw Boateng',
        address: 'Kejetia Market, Kumasi',
        coordinates: { lat: 6.6966, lng: -1.6244 },
      },
    });
  });

  it('support may change it too (as on the operator API); finance reads it, gets no form and 403 on a change', async () => {
    const support = await signedIn(['support']);
    const page = await support.web.get(`/console/catalog/vendors/${vendorId}`);
    const back = await support.web.post(`/console/catalog/vendors/${vendorId}`, {
      _csrf: csrfOf(page.text),
      ...FORM,
    });
    expect(back.status).toBe(200);
    expect(await row()).toMatchObject({
      syndicatable: true,
      commission_bps: 1000,
      pickup_address: 'Makola Market, Accra',
    });
    expect(await listed()).toBe(true);
    const finance = await signedIn(['finance']);
    const read = await finance.web.get(`/console/catalog/vendors/${vendorId}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain('Save the vendor');
    const before = await audits();
    expect(
      (
        await finance.web.post(`/console/catalog/vendors/${vendorId}`, {
          _csrf: csrfOf(read.text),
          ...FORM,
          commission_rate: '0.5',
        })
      ).status,
    ).toBe(403);
    // Without the form token nothing changes either.
    expect(
      (
        await support.web.post(`/console/catalog/vendors/${vendorId}`, {
          ...FORM,
          commission_rate: '0.5',
        })
      ).status,
    ).toBe(403);
    expect((await row()).commission_bps).toBe(1000);
    expect(await audits()).toHaveLength(before.length);
  });

  it('answers bad input with 400 and a clear sentence, changing nothing and auditing nothing', async () => {
    const { web } = await signedIn(['admin']);
    const csrf = csrfOf((await web.get(`/console/catalog/vendors/${vendorId}`)).text);
    const before = await row();
    const entries = (await audits()).length;
    const cases: Array<[Record<string, string>, string]> = [
      [{ commission_rate: '1.5' }, 'commission_rate must be from 0 to 1 with at most 4 decimals'],
      [{ commission_rate: '-0.1' }, 'commission_rate must be from 0 to 1'],
      [{ commission_rate: '99999999999999999999' }, 'commission_rate must be from 0 to 1'],
      [{ commission_rate: '0.12345' }, 'at most 4 decimals'],
      [{ commission_rate: '1e-1' }, 'Commission rate must be a number written with digits'],
      [{ commission_rate: 'Infinity' }, 'Commission rate must be a number written with digits'],
      [{ commission_rate: '' }, 'Commission rate must be a number written with digits'],
      [
        { commission_rate: '9'.repeat(21) },
        '“Commission rate” is too long (at most 20 characters)',
      ],
      [
        { commission_rate: '0.1\u0000' },
        '“Commission rate” contains characters that are not allowed',
      ],
      [
        { contact_person: 'Yaw\u0007' },
        '“Pickup contact person” contains characters that are not allowed',
      ],
      [
        { address: 'Line one\nline two' },
        '“Pickup address” contains characters that are not allowed',
      ],
      [{ contact_person: '   ' }, 'pickup.contact_person must not be blank'],
      [{ contact_phone: '12345' }, 'pickup.contact_phone must be a Ghana phone number'],
      [{ lat: '51.5', lng: '-0.12' }, 'pickup.coordinates must be a point inside Ghana'],
      [{ lat: '1e308' }, 'Pickup latitude must be a number'],
      [{ syndicatable: 'maybe' }, 'Syndication must be on or off.'],
    ];
    for (const [change, message] of cases) {
      const res = await web.post(`/console/catalog/vendors/${vendorId}`, {
        _csrf: csrf,
        ...FORM,
        ...change,
      });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.text, JSON.stringify(change)).toContain(message);
    }
    // The refused page keeps what was typed, escaped.
    const kept = await web.post(`/console/catalog/vendors/${vendorId}`, {
      _csrf: csrf,
      ...FORM,
      address: '<b>Somewhere</b>',
      contact_phone: 'x',
    });
    expect(kept.text).toContain('value="&lt;b&gt;Somewhere&lt;/b&gt;"');
    expect(await row()).toEqual(before);
    expect(await audits()).toHaveLength(entries);
  });

  it('answers 404 for an unknown or malformed vendor id', async () => {
    const { web } = await signedIn(['admin']);
    const csrf = csrfOf((await web.get('/console/catalog')).text);
    for (const id of ['ven_00000000000000000000000000', 'nope', 'ven_%27']) {
      expect((await web.get(`/console/catalog/vendors/${id}`)).status, id).toBe(404);
      expect(
        (await web.post(`/console/catalog/vendors/${id}`, { _csrf: csrf, ...FORM })).status,
        id,
      ).toBe(404);
    }
  });

  it('keeps the change and its audit entry in one transaction: a failing audit leaves the vendor as it was', async () => {
    const before = await row();
    const catalog = p.app.platform.catalog!.catalog;
    await expect(
      catalog.updateVendor(vendorId, { commission_rate: 0.3 }, async () => {
        throw new Error('audit log unavailable');
      }),
    ).rejects.toThrow('audit log unavailable');
    expect(await row()).toEqual(before);
  });
});
