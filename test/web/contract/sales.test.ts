import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decide,
  getSale,
  orderBody,
  placed,
  SALE_SCOPES,
  shop,
  verifySale,
} from '../../catalog/helpers.ts';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import {
  addKey,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { mailedLink, newEmail, PASSWORD, verifiedOwner, WebClient } from '../../helpers/web.ts';

async function invited(p: TestPlatform, owner: WebClient, role: string): Promise<WebClient> {
  const email = newEmail(role);
  await owner.submit('/dashboard/team', '/dashboard/team/invite', { email, role });
  const link = await mailedLink(p, email, '/invitations');
  const web = new WebClient(p);
  await web.get(link);
  expect((await web.submit(link, link, { password: PASSWORD })).location).toBe('/dashboard');
  return web;
}

/** A partner signed up through the dashboard, with production access and a key that can place sales. */
async function salesPartner(
  p: TestPlatform,
  name: string,
): Promise<{ web: WebClient; key: PartnerSetup }> {
  const { web, email } = await verifiedOwner(p, newEmail('owner'), name);
  const partnerId = await partnerOfMember(p, email);
  await p.admin('PATCH', `/partners/${partnerId}`, { production_active: true });
  const created = await web.submit('/dashboard/apps', '/dashboard/apps', { name: 'Shop app' });
  const appId = /<code>(app_[0-9A-Z]{26})<\/code>/.exec(created.text)![1]!;
  return {
    web,
    key: await addKey(p, { partnerId, appId }, { environment: 'production', scopes: SALE_SCOPES }),
  };
}

const saleIds = (html: string) =>
  [...html.matchAll(/href="\/dashboard\/sales\/(sale_[0-9A-Z]{26})"/g)].map((m) => m[1]!);
/** The text of a page with tags dropped and spaces squeezed, to read figures beside their labels. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('dashboard sales: the list, a sale with its settlement as the ledger recorded it', () => {
  let p: TestPlatform;
  let a: { web: WebClient; key: PartnerSetup };
  let b: { web: WebClient; key: PartnerSetup };
  let settled: any;
  let pending: any;
  let others: string[];

  beforeAll(async () => {
    p = await startPlatform();
    a = await salesPartner(p, 'Kofi Resellers');
    b = await salesPartner(p, 'Other Shop');
    // Paid online: 12.5% commission on 2 × GHS 180.00, GHS 15.00 markup.
    const s = await shop(p, { vendor: { commission_rate: 0.125 } });
    settled = await placed(
      a.key,
      orderBody(s, {
        payment_method: 'online',
        items: [{ product_id: s.productId, variant_id: s.variantId, quantity: 2 }],
        reseller_markup_ghs: 15,
      }),
    );
    expect(await decide(settled.checkout_url, 'pay')).toBe(200);
    expect((await verifySale(a.key, settled.sale_id)).body.data).toMatchObject({
      state: 'confirmed',
      settled: true,
    });
    // Not yet delivered, its split is not recorded; delivered, it is.
    expect((await a.web.get(`/dashboard/sales/${settled.sale_id}`)).text).toContain(
      'id="not-settled"',
    );
    const orderId = (await getSale(a.key, { sale_id: settled.sale_id })).body.data.delivery
      .order_id;
    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      expect((await p.admin('POST', `/delivery/orders/${orderId}/status`, { status })).status).toBe(
        200,
      );
    pending = await placed(a.key, orderBody(s));
    others = [(await placed(b.key, orderBody(s))).sale_id];
  });
  afterAll(async () => {
    await p?.close();
  });

  it('lists the partner’s own sales, newest first, with state, payment and delivery status', async () => {
    const page = await a.web.get('/dashboard/sales');
    expect(page.status).toBe(200);
    expect(saleIds(page.text)).toEqual([pending.sale_id, settled.sale_id]);
    const row = textOf(
      /<tr><td><a href="\/dashboard\/sales\/[^"]+">[^<]+<\/a><\/td>.*?<\/tr>/s.exec(
        page.text.slice(page.text.indexOf(settled.sale_id) - 40),
      )![0],
    );
    expect(row).toContain('confirmed');
    expect(row).toContain('paid (online)');
    expect(row).toContain('delivered');
    expect(page.text).toContain('href="/dashboard/sales"');
  });

  it('shows the items, the amounts and the settlement split with exact figures', async () => {
    const fee = Math.round(settled.delivery_fee_ghs * 100);
    const ghs = (pesewas: number) =>
      `GHS ${Math.floor(pesewas / 100)}.${String(pesewas % 100).padStart(2, '0')}`;
    expect(settled.total_ghs * 100).toBeCloseTo(36_000 + fee + 1_500, 6);
    const page = await a.web.get(`/dashboard/sales/${settled.sale_id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain('Handwoven kente stole Gold and green 2 GHS 180.00 GHS 360.00');
    expect(text).toContain(
      `Items GHS 360.00 Delivery fee ${ghs(fee)} Your markup GHS 15.00 Buyer pays ${ghs(37_500 + fee)}`,
    );
    expect(text).toContain(
      `Buyer paid ${ghs(37_500 + fee)} Delivery fee ${ghs(fee)} Your markup GHS 15.00 Vendor's share GHS 315.00 Platform commission GHS 45.00`,
    );
    const unsettled = await a.web.get(`/dashboard/sales/${pending.sale_id}`);
    expect(unsettled.text).toContain('id="not-settled"');
  });

  it('answers 404 for another partner’s sale and never lists it', async () => {
    expect((await a.web.get(`/dashboard/sales/${others[0]}`)).status).toBe(404);
    expect(saleIds((await b.web.get('/dashboard/sales')).text)).toEqual(others);
    // Another partner's sale as a page cursor matches nothing of this partner's.
    expect(saleIds((await a.web.get(`/dashboard/sales?after=${others[0]}`)).text)).toEqual([]);
  });

  it('lets owners and finance in, refuses developers with 403', async () => {
    const finance = await invited(p, a.web, 'finance');
    expect(saleIds((await finance.get('/dashboard/sales')).text)).toEqual([
      pending.sale_id,
      settled.sale_id,
    ]);
    expect((await finance.get(`/dashboard/sales/${settled.sale_id}`)).status).toBe(200);
    const developer = await invited(p, a.web, 'developer');
    expect((await developer.get('/dashboard/sales')).status).toBe(403);
    expect((await developer.get(`/dashboard/sales/${settled.sale_id}`)).status).toBe(403);
    expect((await developer.get('/dashboard')).text).not.toContain('href="/dashboard/sales"');
  });

  it('pages newest first, 25 at a time, without gaps or repeats', async () => {
    const s = await shop(p, {
      product: { variants: [{ label: 'Plain', price_ghs: 50, stock: 100 }] },
    });
    const more: string[] = [];
    for (let i = 0; i < 25; i++) more.push((await placed(a.key, orderBody(s))).sale_id);
    const first = await a.web.get('/dashboard/sales');
    const all = [...more.reverse(), pending.sale_id, settled.sale_id];
    expect(saleIds(first.text)).toEqual(all.slice(0, 25));
    const next = /href="(\/dashboard\/sales\?after=sale_[0-9A-Z]{26})">Older sales/.exec(
      first.text,
    )![1]!;
    const second = await a.web.get(next);
    expect(saleIds(second.text)).toEqual(all.slice(25));
    expect(second.text).not.toContain('Older sales');
  });

  it('refuses hostile query values and ids with a 4xx page', async () => {
    for (const q of [
      'after=1%27%20or%201=1',
      'after=%00',
      'after=sale_%25',
      `after=${'A'.repeat(5000)}`,
      'after=x&after=y',
    ]) {
      const res = await a.web.get(`/dashboard/sales?${q}`);
      expect(res.status, q).toBeGreaterThanOrEqual(400);
      expect(res.status, q).toBeLessThan(500);
    }
    for (const id of ['nope', `sale_${'Z'.repeat(26)}`, '..%2F..%2Fetc', `${settled.sale_id}%27`]) {
      expect((await a.web.get(`/dashboard/sales/${id}`)).status, id).toBe(404);
    }
    // A NUL in the path is refused before any route runs.
    expect((await a.web.get('/dashboard/sales/sale_%00')).status).toBe(400);
  });
});
