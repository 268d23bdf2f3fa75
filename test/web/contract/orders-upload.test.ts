import { ordersFromCsv } from '@partner-platform/protocol';
import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { ordersByReference } from '../../helpers/orders-read.ts';
import { csrfOf, invitedMember, partnerDashboard, type WebClient } from '../../helpers/web.ts';

const HEADER =
  'order_reference,customer_name,customer_phone,delivery_address,delivery_city,delivery_region,delivery_lat,delivery_lng,item,pickup_contact_person,pickup_contact_phone,pickup_address,pickup_lat,pickup_lng,payment_payer';
const row = (ref: string, o: { phone?: string; lat?: string; payer?: string } = {}) =>
  `${ref},Ama Mensah,${o.phone ?? '024 123 4567'},"12 Oxford Street, Osu",Accra,Greater Accra,${o.lat ?? '5.556'},-0.182,Sandals,Kofi Boateng,0201234567,Makola Market,5.549,-0.209,${o.payer ?? ''}`;
const csvOf = (...rows: string[]) => `${[HEADER, ...rows].join('\r\n')}\r\n`;

/** Line, reference and result text of each row of the report. */
const reportRows = (html: string) =>
  [
    ...html.matchAll(
      /<tr class="(ok|failed)"><td>(\d+)<\/td><td>([^<]*)<\/td><td class="wrap">(.*?)<\/td><\/tr>/g,
    ),
  ].map((m) => ({
    ok: m[1] === 'ok',
    line: Number(m[2]),
    reference: m[3],
    result: m[4]!.replace(/<[^>]+>/g, ''),
  }));

describe('dashboard: upload a CSV of orders', () => {
  let p: TestPlatform;
  let owner: WebClient;
  let appId: string;
  let partnerId: string;
  let client: PartnerClient;
  let other: Awaited<ReturnType<typeof partnerDashboard>>;

  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    const partner = await partnerDashboard(p);
    ({ web: owner, appId, partnerId } = partner);
    client = new PartnerClient({
      apiKey: partner.apiKey,
      signingSecret: partner.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
    });
    other = await partnerDashboard(p, 'Kofi Foods', 'Kofi app');
  });
  afterAll(async () => {
    await p?.close();
  });

  const orderCount = async () =>
    (
      await p.app.platform.db.query<{ n: number }>('select count(*)::int as n from delivery_orders')
    )[0]!.n;
  const uploads = async () => (await audited(p, { action: 'delivery_order.bulk_upload' })).length;
  const upload = async (as: WebClient, csv: string, extra: Record<string, string> = {}) => {
    const page = await as.get('/dashboard/orders/upload');
    return as.post('/dashboard/orders/upload', {
      _csrf: csrfOf(page.text),
      app_id: appId,
      environment: 'staging',
      csv,
      ...extra,
    });
  };

  it('offers the form (staging only without production access) and links it from the orders page', async () => {
    expect((await owner.get('/dashboard/orders')).text).toContain(
      'href="/dashboard/orders/upload"',
    );
    const page = await owner.get('/dashboard/orders/upload');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<option value="${appId}"`);
    expect(page.text).toContain('<option value="staging">');
    expect(page.text).not.toContain('<option value="production"');
    expect(page.text).toContain('name="csv"');
    expect(page.text).toContain('type="file"');
    expect(page.text).not.toContain(other.appId);
  });

  it('creates the good rows, reports each row (order link or code and message), audits the upload', async () => {
    const csv = csvOf(
      row('UP-1'),
      row('UP-2', { lat: 'north' }),
      row('UP-3', { phone: '' }),
      row('UP-4', { payer: 'partner' }),
      row('UP-5'),
    );
    const res = await upload(owner, csv);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<strong>2</strong> of 5 orders created');
    const rows = reportRows(res.text);
    expect(rows.map((r) => [r.line, r.reference, r.ok])).toEqual([
      [2, 'UP-1', true],
      [3, 'UP-2', false],
      [4, 'UP-3', false],
      [5, 'UP-4', false],
      [6, 'UP-5', true],
    ]);
    expect(rows[1]!.result).toBe('INVALID_ORDER_PAYLOAD delivery_lat must be a number.');
    expect(rows[2]!.result).toMatch(/^MISSING_REQUIRED_FIELD .*phone is required/);
    expect(rows[3]!.result).toMatch(/^INSUFFICIENT_SCOPE /);
    const ids = [...res.text.matchAll(/href="\/dashboard\/orders\/(dlv_[0-9A-Z]{26})"/g)].map(
      (m) => m[1]!,
    );
    expect(ids).toHaveLength(2);
    const created = (await ordersByReference(p, 'UP-'))
      .map(({ order_reference, app_id, environment, partner_id }) => ({
        order_reference,
        app_id,
        environment,
        partner_id,
      }))
      .sort((a, b) => (a.order_reference < b.order_reference ? -1 : 1));
    expect(created).toEqual([
      { order_reference: 'UP-1', app_id: appId, environment: 'staging', partner_id: partnerId },
      { order_reference: 'UP-5', app_id: appId, environment: 'staging', partner_id: partnerId },
    ]);
    const opened = await owner.get(`/dashboard/orders/${ids[0]}`);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('UP-1');
    const [entry] = await audited(p, { action: 'delivery_order.bulk_upload' });
    expect(entry).toMatchObject({
      actor: { kind: 'member' },
      target: { id: appId },
      after: { environment: 'staging', rows: 5, created: 2, failed: 3, order_ids: ids },
    });
    // Uploading the same file again creates nothing twice.
    const again = reportRows((await upload(owner, csv)).text);
    expect(again[0]!.result).toMatch(/^DUPLICATE_ORDER_REFERENCE /);
    expect(
      await p.app.platform.db.query(
        "select id from delivery_orders where order_reference like 'UP-%'",
      ),
    ).toHaveLength(2);
  });

  it('answers each row as orders.create_bulk answers the same item', async () => {
    const csv = csvOf(
      row('SAME-1'),
      row('SAME-2', { phone: '' }),
      row('SAME-3', { payer: 'partner' }),
      row('SAME-4', { lat: '95' }),
    );
    const web = reportRows((await upload(owner, csv)).text).map((r) => r.result.split(' ')[0]);
    const items = ordersFromCsv(csv.replaceAll('SAME-', 'API-')).map((r) => r.order);
    const api = await client.send<{ results: Array<{ ok: boolean; code?: string }> }>(
      'POST',
      '/api/v1/delivery/orders.create_bulk',
      { body: { orders: items } },
    );
    expect(api.body.results.map((r) => (r.ok ? 'Created' : r.code))).toEqual(web);
    expect(web).toEqual([
      'Created',
      'MISSING_REQUIRED_FIELD',
      'INSUFFICIENT_SCOPE',
      'INVALID_ORDER_PAYLOAD',
    ]);
  });

  it('refuses a file it cannot use with a sentence and creates nothing', async () => {
    const before = { orders: await orderCount(), audits: await uploads() };
    const cases: Array<[string, string, number, RegExp]> = [
      ['empty', '', 400, /The CSV is empty/],
      ['blank lines only', '\r\n \r\n', 400, /The CSV is empty/],
      ['a header and no row', `${HEADER}\n`, 400, /no order under it/],
      [
        'an unknown column',
        'order_reference,colour\nX-1,red\n',
        400,
        /unknown CSV column &#34;colour&#34;|unknown CSV column &quot;colour&quot;/,
      ],
      ['a repeated column', 'item,item\na,b\n', 400, /appears twice/],
      ['an unclosed quote', `${HEADER}\n"X-1,oops\n`, 400, /never closed/],
      ['a NUL byte', csvOf(row('X-1\u0000')), 400, /characters that are not allowed/],
      ['a control character', csvOf(row('X-\u0007')), 400, /characters that are not allowed/],
      [
        '101 rows',
        csvOf(...Array.from({ length: 101 }, (_, i) => row(`X-${i}`))),
        400,
        /101 orders; upload at most 100/,
      ],
      [
        'too many characters',
        csvOf(row('X-1', { lat: ` ${' '.repeat(100_000)}5.5` })),
        400,
        /too long/,
      ],
    ];
    for (const [name, csv, status, message] of cases) {
      const res = await upload(owner, csv);
      expect(res.status, name).toBe(status);
      expect(res.text, name).toMatch(message);
      // The form is shown again with the sentence, except when the form itself is refused (NUL, controls, too long).
      if (!/characters|too long/.test(message.source))
        expect(res.text, name).toContain('name="csv"');
    }
    // A body beyond the route's own limit: 413 with this page's sentence, not the small forms' one.
    const huge = await upload(
      owner,
      csvOf(
        ...Array.from({ length: 100 }, (_, i) => row(`X-${i}`, { lat: `5.5${'0'.repeat(5000)}` })),
      ),
    );
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('The CSV is too large to upload');
    // 100 ordinary rows fit.
    const hundred = csvOf(
      ...Array.from({ length: 100 }, (_, i) => row(`HUNDRED-${i}`, { phone: '' })),
    );
    const full = await upload(owner, hundred);
    expect(full.status).toBe(200);
    expect(reportRows(full.text)).toHaveLength(100);
    // The choices: another partner's app, a made-up one, production without access.
    for (const extra of [
      { app_id: other.appId },
      { app_id: 'app_%00' },
      { environment: 'production' },
      { environment: 'prod' },
    ] as Array<Record<string, string>>) {
      const res = await upload(owner, csvOf(row('X-1')), extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
    }
    expect(await orderCount()).toBe(before.orders);
    expect(await uploads()).toBe(before.audits + 1);
  });

  it('lets a partner with production access upload to production', async () => {
    await p.admin('PATCH', `/partners/${partnerId}`, { production_active: true });
    expect((await owner.get('/dashboard/orders/upload')).text).toContain(
      '<option value="production"',
    );
    const res = await upload(owner, csvOf(row('PROD-1')), { environment: 'production' });
    expect(res.status).toBe(200);
    expect(reportRows(res.text)[0]).toMatchObject({ ok: true });
    expect(
      (await ordersByReference(p, 'PROD-1'))
        .filter((o) => o.order_reference === 'PROD-1')
        .map(({ environment }) => ({ environment })),
    ).toEqual([{ environment: 'production' }]);
    await p.admin('PATCH', `/partners/${partnerId}`, { production_active: false });
  });

  it('lets developers upload; finance gets 403 and no link; other partners see none of it; CSRF is required', async () => {
    const developer = await invitedMember(p, owner, 'developer');
    expect(reportRows((await upload(developer, csvOf(row('DEV-1')))).text)[0]).toMatchObject({
      ok: true,
    });
    const finance = await invitedMember(p, owner, 'finance');
    expect((await finance.get('/dashboard/orders')).text).not.toContain('/dashboard/orders/upload');
    expect((await finance.get('/dashboard/orders/upload')).status).toBe(403);
    const page = await finance.get('/dashboard/orders');
    const refused = await finance.post('/dashboard/orders/upload', {
      _csrf: csrfOf(page.text),
      app_id: appId,
      environment: 'staging',
      csv: csvOf(row('FIN-1')),
    });
    expect(refused.status).toBe(403);
    expect(
      await p.app.platform.db.query(
        "select id from delivery_orders where order_reference = 'FIN-1'",
      ),
    ).toEqual([]);
    // Without the token, or from another site.
    expect(
      (
        await owner.post('/dashboard/orders/upload', {
          app_id: appId,
          environment: 'staging',
          csv: csvOf(row('CSRF-1')),
        })
      ).status,
    ).toBe(403);
    const form = await owner.get('/dashboard/orders/upload');
    expect(
      (
        await owner.post(
          '/dashboard/orders/upload',
          {
            _csrf: csrfOf(form.text),
            app_id: appId,
            environment: 'staging',
            csv: csvOf(row('CSRF-2')),
          },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    expect(
      await p.app.platform.db.query(
        "select id from delivery_orders where order_reference like 'CSRF-%'",
      ),
    ).toEqual([]);
    // Another partner uploading with this partner's app id creates nothing, and cannot open its orders.
    const theirs = await other.web.get('/dashboard/orders/upload');
    const cross = await other.web.post('/dashboard/orders/upload', {
      _csrf: csrfOf(theirs.text),
      app_id: appId,
      environment: 'staging',
      csv: csvOf(row('CROSS-1')),
    });
    expect(cross.status).toBe(400);
    expect(
      await p.app.platform.db.query(
        "select id from delivery_orders where order_reference = 'CROSS-1'",
      ),
    ).toEqual([]);
    const mine = await client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_reference: 'UP-1' },
    });
    expect(
      (await other.web.get(`/dashboard/orders/${mine.body.data.internal_order_id}`)).status,
    ).toBe(404);
  });
});
