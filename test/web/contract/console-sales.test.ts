import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, getSale, orderBody, placed, SALE_SCOPES, shop } from '../../catalog/helpers.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

const listed = (html: string) =>
  [...html.matchAll(/<a href="\/console\/sales\/(sale_[0-9A-Z]{26})">/g)].map((m) => m[1]!);
/** The text of a page with tags dropped and spaces squeezed, to read figures beside their labels. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const ghs = (pesewas: number) =>
  `GHS ${Math.floor(pesewas / 100)}.${String(pesewas % 100).padStart(2, '0')}`;
const hrefOf = (href: string) => href.replace(/&amp;/g, '&');

describe('every partner’s catalog sales in the console (finance, admin; read-only)', () => {
  let p: TestPlatform;
  let now = Date.now();
  let a: PartnerSetup;
  let b: PartnerSetup;
  let settled: any;
  let paidOnly: any;
  let refunded: any;
  let held: any;
  let other: any;
  const bulk: string[] = [];

  const seller = () =>
    createPartner(p, {
      environment: 'production',
      scopes: SALE_SCOPES,
      rateLimits: { reads_per_minute: 10_000, writes_per_minute: 10_000 },
    });

  beforeAll(async () => {
    p = await startPlatform({ clock: () => now });
    [a, b] = [await seller(), await seller()];
    // Paid online: 12.5% commission on 2 × GHS 180.00, GHS 15.00 markup.
    const s = await shop(p, { vendor: { commission_rate: 0.125 } });
    settled = await placed(
      a,
      orderBody(s, {
        payment_method: 'online',
        items: [{ product_id: s.productId, variant_id: s.variantId, quantity: 2 }],
        reseller_markup_ghs: 15,
      }),
    );
    expect(await decide(settled.checkout_url, 'pay')).toBe(200);
    // Delivered: its shares are earned.
    const delivery = (await getSale(a, { sale_id: settled.sale_id })).body.data.delivery.order_id;
    for (const status of ['accepted', 'pickedUp', 'in_transit', 'delivered'])
      expect(
        (await p.admin('POST', `/delivery/orders/${delivery}/status`, { status })).status,
      ).toBe(200);
    paidOnly = await placed(a, orderBody(s, { payment_method: 'online' }));
    expect(await decide(paidOnly.checkout_url, 'pay')).toBe(200);
    refunded = await placed(a, orderBody(s, { payment_method: 'online' }));
    expect(await decide(refunded.checkout_url, 'pay')).toBe(200);
    const { order_id } = (await getSale(a, { sale_id: refunded.sale_id })).body.data.delivery;
    expect(
      (await a.client.send('POST', '/api/v1/delivery/orders.cancel', { body: { order_id } }))
        .status,
    ).toBe(200);
    held = await placed(a, orderBody(s, { payment_method: 'online' }));
    await p.app.platform.db.query(
      'update sandbox_checkouts set amount_pesewas = amount_pesewas - 1 where client_reference = (select client_reference from sales where id = $1)',
      [held.sale_id],
    );
    expect(await decide(held.checkout_url, 'pay')).toBe(200);
    const plain = await shop(p, {
      product: { variants: [{ label: 'Plain', price_ghs: 50, stock: 1000 }] },
    });
    for (let i = 0; i < 52; i++) bulk.push((await placed(a, orderBody(plain))).sale_id);
    other = await placed(b, orderBody(plain));
    // Signed calls need the real time; the days the filters read are set afterwards: the three paid
    // sales on 10 March, the 52 cash sales on 11 March, the other partner's sale on 12 March.
    const at = async (id: string, iso: string) =>
      p.app.platform.db.query('update sales set created_at = $2 where id = $1', [
        id,
        new Date(iso),
      ]);
    await at(settled.sale_id, '2026-03-10T09:00:00Z');
    await at(refunded.sale_id, '2026-03-10T09:01:00Z');
    await at(paidOnly.sale_id, '2026-03-10T09:02:00Z');
    await at(held.sale_id, '2026-03-10T23:59:59Z');
    for (const [i, id] of bulk.entries())
      await at(id, new Date(Date.parse('2026-03-11T00:00:00Z') + i * 1000).toISOString());
    await at(other.sale_id, '2026-03-12T00:00:00Z');
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('lists every partner’s sales newest first in pages of 50, without gaps or repeats', async () => {
    const { web } = await signedIn(['finance']);
    const first = await web.get('/console/sales');
    expect(first.status).toBe(200);
    const all = [
      other.sale_id,
      ...[...bulk].reverse(),
      held.sale_id,
      paidOnly.sale_id,
      refunded.sale_id,
      settled.sale_id,
    ];
    expect(listed(first.text)).toEqual(all.slice(0, 50));
    expect(first.text).toContain(`href="/console/partners/${b.partnerId}"`);
    const next = /<a href="([^"]+)">Older sales<\/a>/.exec(first.text)![1]!;
    const second = await web.get(hrefOf(next));
    expect(listed(second.text)).toEqual(all.slice(50));
    expect(second.text).not.toContain('Older sales');
    expect(second.text).toContain('Newest sales');
    // A filtered page's next link keeps the filter.
    const mine = await web.get(`/console/sales?partner=${a.partnerId}`);
    const mineNext = hrefOf(/<a href="([^"]+)">Older sales<\/a>/.exec(mine.text)![1]!);
    expect(mineNext).toContain(`partner=${a.partnerId}`);
    expect(listed((await web.get(mineNext)).text)).toEqual(all.slice(51));
  });

  it('filters by state, payment status, partner and day', async () => {
    const { web } = await signedIn(['admin']);
    const ids = async (q: string) => listed((await web.get(`/console/sales?${q}`)).text);
    expect(await ids('state=confirmed')).toEqual([paidOnly.sale_id, settled.sale_id]);
    expect(await ids('payment=refund_due')).toEqual([refunded.sale_id]);
    expect(await ids('state=on_hold&payment=amount_mismatch')).toEqual([held.sale_id]);
    expect(await ids(`partner=${b.partnerId}`)).toEqual([other.sale_id]);
    expect(await ids('until=2026-03-10')).toEqual([
      held.sale_id,
      paidOnly.sale_id,
      refunded.sale_id,
      settled.sale_id,
    ]);
    expect(await ids('from=2026-03-12')).toEqual([other.sale_id]);
    expect(await ids('from=2026-03-11&until=2026-03-11&state=awaiting_delivery')).toHaveLength(50);
    expect(await ids('from=2026-03-13')).toEqual([]);
    const page = await web.get('/console/sales?state=failed&payment=refund_due');
    expect(page.text).toContain('<option value="failed" selected>');
    expect(page.text).toContain('<option value="refund_due" selected>');
  });

  it('shows a sale’s items, payment, delivery, where its money is and its settlement split at delivery, with links to its journals', async () => {
    const { web } = await signedIn(['finance']);
    const fee = Math.round(settled.delivery_fee_ghs * 100);
    const page = await web.get(`/console/sales/${settled.sale_id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain('Handwoven kente stole Gold and green 2 GHS 180.00 GHS 360.00');
    expect(text).toContain(
      `Items GHS 360.00 Vendor's share GHS 315.00 Platform commission GHS 45.00 Delivery fee ${ghs(fee)} Partner markup GHS 15.00 Buyer pays ${ghs(37_500 + fee)}`,
    );
    expect(text).toContain(
      `Buyer paid ${ghs(37_500 + fee)} Vendor payable GHS 315.00 Partner markup GHS 15.00 Platform commission GHS 45.00 Delivery revenue ${ghs(fee)}`,
    );
    expect(text).toContain('paid (online through sandbox)');
    expect(text).toContain(
      'Money Earned at delivery: the vendor&#39;s and partner&#39;s shares are payable',
    );
    expect(text).toMatch(
      new RegExp(
        `Paid online: held until the delivery is delivered · [^·]+ ${ghs(37_500 + fee)} · Journal`,
      ),
    );
    expect(page.text).toContain(`href="/console/partners/${a.partnerId}"`);
    expect(page.text).toMatch(/href="\/console\/orders\/dlv_[0-9A-Z]{26}">delivered</);
    const journal = /href="\/console\/journals\/(jrn_[0-9A-Z]{26})"/.exec(page.text)![1]!;
    const [posted] = await p.app.platform.journals.about(['sale_settlement'], settled.sale_id);
    expect(journal).toBe(posted!.id);
    expect((await web.get(`/console/journals/${journal}`)).text).toContain(
      'Balanced: debits equal credits.',
    );
    // Nothing to change: the only form posts the sign-out.
    expect(page.text.match(/<form method="post"/g)).toHaveLength(1);
  });

  it('shows a paid sale held until delivery, one that failed before it owed back, and a held payment, each as its own journal', async () => {
    const { web } = await signedIn(['finance']);
    const paid = textOf((await web.get(`/console/sales/${paidOnly.sale_id}`)).text);
    expect(paid).toContain(
      'Money Paid, held for the sale until its delivery is delivered ( sales_undelivered )',
    );
    expect(paid).toContain('Earned —');
    expect(paid.match(/Journal jrn_[0-9A-Z]{26}/g)).toHaveLength(1);
    const total = Math.round(refunded.total_ghs * 100);
    const refund = textOf((await web.get(`/console/sales/${refunded.sale_id}`)).text);
    expect(refund).toMatch(
      new RegExp(`Failed before delivery: owed back to the buyer · [^·]+ ${ghs(total)} · Journal`),
    );
    expect(refund).toContain('Money Owed back to the buyer ( sale_refunds_payable )');
    expect(refund).not.toContain('Vendor payable');
    expect(refund).toContain(`Owed back to the buyer ${ghs(total)}`);
    expect(refund.match(/Journal jrn_[0-9A-Z]{26}/g)).toHaveLength(2);
    const hold = await web.get(`/console/sales/${held.sale_id}`);
    expect(textOf(hold.text)).toContain('( sale_payments_held )');
    expect(textOf(hold.text)).toContain(`Payment held for review (another amount than the total)`);
    expect(textOf(hold.text)).toContain(`${ghs(Math.round(held.total_ghs * 100) - 1)} · Journal`);
    const unsettled = await web.get(`/console/sales/${bulk[0]}`);
    expect(unsettled.text).toContain('id="not-settled"');
  });

  it('refuses support with 403 and shows finance and admin the Sales link', async () => {
    const support = await signedIn(['support']);
    expect((await support.web.get('/console/sales')).status).toBe(403);
    expect((await support.web.get(`/console/sales/${settled.sale_id}`)).status).toBe(403);
    expect((await support.web.get('/console/catalog')).text).not.toContain('href="/console/sales"');
    const finance = await signedIn(['finance']);
    expect((await finance.web.get('/console/catalog')).text).toContain('href="/console/sales"');
  });

  it('refuses hostile filters and ids with a 4xx page', async () => {
    const { web } = await signedIn(['finance']);
    for (const q of [
      'state=bogus',
      'state=confirmed&state=failed',
      'payment=%00',
      'payment=paid%27',
      'partner=ptn_x',
      `partner=${'A'.repeat(5000)}`,
      'from=2026-02-30',
      'until=2026-13-01',
      'from=yesterday',
      'before=sale_%27',
      'before=%07',
    ]) {
      const res = await web.get(`/console/sales?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.text, q).toMatch(/filter is not valid|not a real day/);
    }
    for (const id of ['nope', `sale_${'Z'.repeat(26)}`, `${settled.sale_id}%27`]) {
      expect((await web.get(`/console/sales/${id}`)).status, id).toBe(404);
    }
    expect((await web.get('/console/sales/sale_%00')).status).toBe(400);
  });
});
