import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import { partnerOfMember } from '../../helpers/accounts-read.ts';
import {
  addKey,
  countRows,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import {
  csrfOf,
  mailedLink,
  newEmail,
  PASSWORD,
  verifiedOwner,
  WebClient,
} from '../../helpers/web.ts';
import { decide, WALLET_SCOPES } from '../../wallet/helpers.ts';
import { TOPUP_NEEDS_PRODUCTION } from '../../../src/modules/wallet/service.ts';

async function invited(p: TestPlatform, owner: WebClient, role: string): Promise<WebClient> {
  const email = newEmail(role);
  await owner.submit('/dashboard/team', '/dashboard/team/invite', { email, role });
  const link = await mailedLink(p, email, '/invitations');
  const web = new WebClient(p);
  await web.get(link);
  expect((await web.submit(link, link, { password: PASSWORD })).location).toBe('/dashboard');
  return web;
}

/** A partner signed up through the dashboard, with production access and a production key holding the wallet scopes. */
async function productionPartner(
  p: TestPlatform,
  name: string,
): Promise<{ web: WebClient; partnerId: string; key: PartnerSetup }> {
  const { web, email } = await verifiedOwner(p, newEmail('owner'), name);
  const partnerId = await partnerOfMember(p, email);
  await p.admin('PATCH', `/partners/${partnerId}`, { production_active: true });
  const created = await web.submit('/dashboard/apps', '/dashboard/apps', { name: 'Shop app' });
  const appId = /<code>(app_[0-9A-Z]{26})<\/code>/.exec(created.text)![1]!;
  const key = await addKey(
    p,
    { partnerId, appId },
    { environment: 'production', scopes: WALLET_SCOPES },
  );
  return { web, partnerId, key };
}

/** Tops up from the dashboard and pays on the sandbox checkout; answers the top-up page's HTML. */
async function dashboardTopUp(web: WebClient, amount: string): Promise<string> {
  const started = await web.submit('/dashboard/wallet', '/dashboard/wallet/topups', {
    amount_ghs: amount,
  });
  expect(started.status, started.text.slice(0, 300)).toBe(303);
  const checkout = started.location!;
  expect(checkout).toMatch(/\/sandbox\/checkout\/[^/]+$/);
  expect(await decide(checkout, 'pay')).toBe(200);
  const ref = /serviceD_WA[0-9a-f]{16}/.exec((await web.get('/dashboard/wallet')).text)![0];
  return (await web.get(`/dashboard/wallet/topups/${ref}`)).text;
}

const spend = (key: PartnerSetup) => {
  const body = orderBody({ payment: { payer: 'partner' } });
  body.pickup.coordinates = ACCRA_CENTRAL;
  body.delivery.coordinates = EAST_LEGON;
  return key.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
};

const rowsOf = (html: string) =>
  [
    ...html.matchAll(
      /<tr data-journal="(jrn_[0-9A-Z]{26})"><td>[^<]*<\/td><td>([^<]*)<\/td><td><code>[^<]*<\/code><\/td><td class="amount">([^<]*)<\/td><td class="amount">([^<]*)<\/td>/g,
    ),
  ].map((m) => ({
    journal: m[1]!,
    what: m[2]!,
    amount: m[3]!,
    after: m[4]!,
  }));

const ghs = (pesewas: number) =>
  `GHS ${pesewas < 0 ? '-' : ''}${Math.floor(Math.abs(pesewas) / 100)}.${String(Math.abs(pesewas) % 100).padStart(2, '0')}`;

describe('dashboard wallet: statement, top-ups, roles, partners apart', () => {
  let p: TestPlatform;
  let a: Awaited<ReturnType<typeof productionPartner>>;
  let b: Awaited<ReturnType<typeof productionPartner>>;

  beforeAll(async () => {
    p = await startPlatform();
    a = await productionPartner(p, 'Adwoa Bakery');
    b = await productionPartner(p, 'Kofi Hardware');
  });
  afterAll(async () => {
    await p?.close();
  });

  it('tops up through the gateway and lists each entry with the exact running balance, newest first', async () => {
    expect(await dashboardTopUp(a.web, '150.55')).toContain(
      'GHS 150.55</strong> was added to your wallet',
    );
    expect(await dashboardTopUp(a.web, '30')).toContain(
      'The balance is now <strong>GHS 180.55</strong>',
    );
    const orders: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await spend(a.key);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      orders.push(res.body.data.order_details.order_id);
    }
    expect(
      (
        await a.key.client.send<any>('POST', '/api/v1/delivery/orders.cancel', {
          body: { order_id: orders[1] },
        })
      ).status,
    ).toBe(200);
    await p.app.platform.delivery!.refunds.tick();

    // The ledger, straight from the database, oldest first, with the running sum computed here.
    const ledger = await p.app.platform.db.query<{ journal_id: string; amount_pesewas: number }>(
      'select journal_id, amount_pesewas from ledger_entries where account = $1 order by created_at, journal_id',
      [`wallet:${a.partnerId}`],
    );
    expect(ledger.length).toBe(6);
    let running = 0;
    const expected = ledger
      .map((e) => ({
        journal: e.journal_id,
        amount: `${e.amount_pesewas > 0 ? '+' : ''}${ghs(Number(e.amount_pesewas))}`,
        after: ghs((running += Number(e.amount_pesewas))),
      }))
      .reverse();
    const page = await a.web.get('/dashboard/wallet');
    expect(page.status).toBe(200);
    expect(
      rowsOf(page.text).map(({ journal, amount, after }) => ({ journal, amount, after })),
    ).toEqual(expected);
    expect(rowsOf(page.text).map((r) => r.what)).toEqual([
      'Fee refund',
      'Delivery fee',
      'Delivery fee',
      'Delivery fee',
      'Top-up',
      'Top-up',
    ]);
    // The newest running balance is the cached balance.
    const cached = (
      await p.app.platform.db.query<{ balance_pesewas: number }>(
        'select balance_pesewas from wallets where partner_id = $1',
        [a.partnerId],
      )
    )[0]!.balance_pesewas;
    expect(page.text).toContain(`<strong id="balance">${ghs(Number(cached))}</strong>`);
    expect(expected[0]!.after).toBe(ghs(Number(cached)));
    // Top-ups with their state; the chart's data and the plain table of the same figures.
    expect(page.text.match(/<span class="badge">credited<\/span>/g)?.length).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect(page.text).toContain(`<tr><td>${today}</td><td>${ghs(Number(cached))}</td>`);
    const chart = JSON.parse(
      /data-chart="([^"]*)"/
        .exec(page.text)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&#34;/g, '"'),
    );
    expect(chart.days).toHaveLength(30);
    expect(chart.series[0].values.at(-1)).toBe(Number(cached) / 100);
    expect(page.text).not.toMatch(/<script>|<style|style="/);
  });

  it('pages the statement by keyset, and the balances stay exact across pages', async () => {
    await p.admin('PATCH', `/partners/${a.partnerId}`, { credit_limit_ghs: 5000 });
    expect((await a.web.get('/dashboard/wallet')).text).toMatch(
      /id="credit-limit">GHS 5000.00<[\s\S]*id="headroom">GHS 5\d{3}\.\d\d /,
    );
    for (let i = 0; i < 24; i++) expect((await spend(a.key)).status).toBe(201);
    const first = await a.web.get('/dashboard/wallet');
    const page1 = rowsOf(first.text);
    expect(page1).toHaveLength(25);
    const next = /href="(\/dashboard\/wallet\?after=jrn_[0-9A-Z]{26})" id="older"/.exec(
      first.text,
    )![1]!;
    await spend(a.key); // arrives between pages: page 2 does not shift
    const page2 = rowsOf((await a.web.get(next)).text);
    expect(page2).toHaveLength(5);
    expect(page2.at(-1)!.after).toBe('GHS 150.55');
    expect(new Set([...page1, ...page2].map((r) => r.journal)).size).toBe(30);
    expect((await a.web.get('/dashboard/wallet?after=1%27%20or%201=1')).status).toBe(400);
    expect((await a.web.get('/dashboard/wallet?after=x&after=y')).status).toBe(400);
  });

  it('keeps partners apart: B sees none of A’s entries or top-ups', async () => {
    const page = await b.web.get('/dashboard/wallet');
    expect(page.status).toBe(200);
    expect(rowsOf(page.text)).toEqual([]);
    expect(page.text).toContain('<strong id="balance">GHS 0.00</strong>');
    const aRef = /serviceD_WA[0-9a-f]{16}/.exec((await a.web.get('/dashboard/wallet')).text)![0];
    expect(page.text).not.toContain(aRef);
    expect((await b.web.get(`/dashboard/wallet/topups/${aRef}`)).status).toBe(404);
    const aJournal = rowsOf((await a.web.get('/dashboard/wallet')).text)[0]!.journal;
    expect(rowsOf((await b.web.get(`/dashboard/wallet?after=${aJournal}`)).text)).toEqual([]);
  });

  it('lets finance see and top up, and refuses developers with 403 (nothing created)', async () => {
    const developer = await invited(p, a.web, 'developer');
    const finance = await invited(p, a.web, 'finance');
    expect((await developer.get('/dashboard/wallet')).status).toBe(403);
    const before = await countRows(p, 'select count(*)::int as n from wallet_topups');
    const csrf = csrfOf((await developer.get('/dashboard')).text);
    expect(
      (await developer.post('/dashboard/wallet/topups', { _csrf: csrf, amount_ghs: '100' })).status,
    ).toBe(403);
    expect(await countRows(p, 'select count(*)::int as n from wallet_topups')).toBe(before);
    expect((await finance.get('/dashboard/wallet')).status).toBe(200);
    expect(await dashboardTopUp(finance, '45.10')).toContain('GHS 45.10</strong> was added');
  });

  it('refuses forged forms and hostile or out-of-range amounts with 4xx, creating nothing', async () => {
    const before = await countRows(p, 'select count(*)::int as n from wallet_topups');
    const csrf = csrfOf((await a.web.get('/dashboard/wallet')).text);
    expect((await a.web.post('/dashboard/wallet/topups', { amount_ghs: '100' })).status).toBe(403);
    expect(
      (await a.web.post('/dashboard/wallet/topups', { _csrf: 'forged', amount_ghs: '100' })).status,
    ).toBe(403);
    expect(
      (
        await a.web.post(
          '/dashboard/wallet/topups',
          { _csrf: csrf, amount_ghs: '100' },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    const tooSmall = await a.web.post('/dashboard/wallet/topups', {
      _csrf: csrf,
      amount_ghs: '29.99',
    });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.text).toContain('The minimum top-up is GHS 30.00.');
    const tooBig = await a.web.post('/dashboard/wallet/topups', {
      _csrf: csrf,
      amount_ghs: '100000.01',
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.text).toContain('The maximum top-up from the dashboard is GHS 100000.00.');
    const hostile = [
      '',
      ' ',
      '-50',
      '1e3',
      '50.001',
      '0x40',
      'NaN',
      'Infinity',
      '50,00',
      '9'.repeat(19),
      '100\u0000',
      '١٠٠',
      '<script>',
      "50' or 1=1",
      '50.',
    ];
    for (const amount_ghs of hostile) {
      const res = await a.web.post('/dashboard/wallet/topups', { _csrf: csrf, amount_ghs });
      expect(res.status, amount_ghs).toBeGreaterThanOrEqual(400);
      expect(res.status, amount_ghs).toBeLessThan(500);
    }
    expect(
      (
        await a.web.post('/dashboard/wallet/topups', {
          _csrf: csrf,
          amount_ghs: '100',
          app_id: 'app_00000000000000000000000000',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await a.web.post('/dashboard/wallet/topups', {
          _csrf: csrf,
          amount_ghs: ['1', '2'] as unknown as string,
        })
      ).status,
    ).toBe(400);
    const raw = await a.web.request('POST', '/dashboard/wallet/topups', {
      body: `_csrf=${csrf}&amount_ghs=50&amount_ghs=60`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.url },
    });
    expect(raw.status).toBe(400);
    expect(
      (
        await a.web.request('POST', '/dashboard/wallet/topups', {
          body: '{"amount_ghs":50}',
          headers: { 'content-type': 'application/json', origin: p.url },
        })
      ).status,
    ).toBe(415);
    expect((await a.web.get('/dashboard/wallet/topups/serviceD_WA%27--')).status).toBe(404);
    expect(await countRows(p, 'select count(*)::int as n from wallet_topups')).toBe(before);
  });
});

describe('dashboard wallet of a partner still on staging, on a default install', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform({ env: { SANDBOX_PAYMENTS_FOR_PRODUCTION: 'off' } });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('says why it cannot top up and what to do (request activation), instead of a bare refusal, and creates nothing', async () => {
    const { web, email } = await verifiedOwner(p, newEmail('owner'), 'Staging Only Shop');
    await web.submit('/dashboard/apps', '/dashboard/apps', { name: 'Shop app' });
    const page = (await web.get('/dashboard/wallet')).text;
    expect(page).toContain('Top-ups open once production is active.');
    expect(page).toContain(
      '<a class="button" href="/dashboard/activation">Request production activation</a>',
    );
    expect(page).not.toContain('id="topup-form"');
    // A form posted anyway (an old tab) is refused with the reason, before any gateway is asked.
    const refused = await web.submit('/dashboard/wallet', '/dashboard/wallet/topups', {
      amount_ghs: '100',
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(TOPUP_NEEDS_PRODUCTION);
    expect(refused.text).not.toContain('no payment gateway');
    expect(await countRows(p, 'select count(*)::int as n from wallet_topups')).toBe(0);

    // A saved draft is pointed to; finance, who cannot request activation, is told to ask an owner.
    const partnerId = await partnerOfMember(p, email);
    await web.submit('/dashboard/activation', '/dashboard/activation', {
      business_name: 'Staging Only Shop Ltd',
      intent: 'save',
    });
    expect((await p.app.platform.activation.current(partnerId))?.state).toBe('draft');
    expect((await web.get('/dashboard/wallet')).text).toContain(
      '(your draft is saved: finish and submit it)',
    );
    const finance = await invited(p, web, 'finance');
    const financePage = (await finance.get('/dashboard/wallet')).text;
    expect(financePage).toContain('Ask an owner of your account to request production activation.');
    expect(financePage).not.toContain('href="/dashboard/activation"');

    // Once production is active, the form is back.
    await p.admin('PATCH', `/partners/${partnerId}`, { production_active: true });
    const active = (await web.get('/dashboard/wallet')).text;
    expect(active).toContain('id="topup-form"');
    expect(active).not.toContain('Top-ups open once production is active.');
  });
});

describe('dashboard wallet without a production gateway', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startPlatform({ env: { SANDBOX_PAYMENTS_FOR_PRODUCTION: 'off' } });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('refuses a top-up with a sentence and creates nothing; serves the chart library as our own asset', async () => {
    const { web } = await productionPartner(p, 'Esi Prints');
    const refused = await web.submit('/dashboard/wallet', '/dashboard/wallet/topups', {
      amount_ghs: '100',
    });
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('This deployment has no payment gateway for production');
    expect(await countRows(p, 'select count(*)::int as n from wallet_topups')).toBe(0);
    const page = (await web.get('/dashboard/wallet')).text;
    for (const src of [...page.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!)) {
      expect(src).toMatch(/^\/assets\/[\w-]+\.[0-9a-f]{12}\.js$/);
      const res = await p.fetch(`${p.url}${src}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/javascript');
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    expect(page).toMatch(/<script src="\/assets\/uplot\.[0-9a-f]{12}\.js"/);
    expect(page).toMatch(/<link rel="stylesheet" href="\/assets\/uplot\.[0-9a-f]{12}\.css"/);
  });
});
