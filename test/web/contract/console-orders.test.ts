import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import { audited } from '../../helpers/audit.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { storedOrder } from '../../helpers/orders-read.ts';
import { csrfOf, dashboardKey, verifiedOwner } from '../../helpers/web.ts';

const orderIds = (html: string) =>
  [...html.matchAll(/href="\/console\/orders\/(dlv_[0-9A-Z]{26})"/g)].map((m) => m[1]!);
const offered = (html: string) =>
  [
    ...(/name="status">([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '').matchAll(
      /<option value="(\w+)"/g,
    ),
  ].map((m) => m[1]);

describe('the console orders board', () => {
  let p: TestPlatform;
  let now = Date.now();
  const created: string[] = [];
  let partnerId: string;

  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const { web } = await verifiedOwner(p);
    const key = await dashboardKey(web);
    const client = new PartnerClient({
      apiKey: key.apiKey,
      signingSecret: key.signingSecret,
      baseUrl: p.url,
      fetch: p.fetch,
    });
    for (let i = 0; i < 52; i++) {
      const res = await client.send<any>('POST', '/api/v1/delivery/orders.create', {
        body: orderBody({ order_reference: `CON-${String(i).padStart(3, '0')}` }),
      });
      created.push(res.body.data.order_details.order_id);
    }
    partnerId = (await storedOrder(p, created[0]!)).partner_id;
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('lists every partner’s orders newest first in keyset pages, with filters; staging orders are marked as the sandbox courier’s', async () => {
    const { web } = await signedIn(['finance']);
    const first = await web.get('/console/orders');
    expect(first.status).toBe(200);
    expect(orderIds(first.text)).toEqual(created.slice(2).reverse());
    expect(first.text).toContain('sandbox courier');
    const next = /href="(\/console\/orders\?[^"]*after=[^"]+)">Older orders/
      .exec(first.text)![1]!
      .replace(/&amp;/g, '&');
    expect(orderIds((await web.get(next)).text)).toEqual(created.slice(0, 2).reverse());
    expect(
      orderIds(
        (
          await web.get(
            `/console/orders?partner=${partnerId}&q=con-04&environment=staging&status=placed`,
          )
        ).text,
      ),
    ).toEqual(created.slice(40, 50).reverse());
    expect(orderIds((await web.get('/console/orders?environment=production')).text)).toEqual([]);
    expect(orderIds((await web.get('/console/orders?q=%25')).text)).toEqual([]);
  });

  it('searches references anywhere from three letters or digits in a row; a shorter term matches their start, except within one partner', async () => {
    const { web } = await signedIn(['support']);
    const search = async (query: string) =>
      orderIds((await web.get(`/console/orders?${query}`)).text);
    expect(await search('q=n-050')).toEqual([created[50]]);
    expect(await search('q=co')).toEqual(created.slice(2).reverse());
    // Anywhere, `N-` would be every order: the trigram index has nothing to find it with.
    expect(await search('q=N-')).toEqual([]);
    expect(await search('q=%25')).toEqual([]);
    expect(await search(`partner=${partnerId}&q=N-`)).toEqual(created.slice(2).reverse());
  });

  it('answers hostile filters and ids with 4xx pages, never 5xx', async () => {
    const { web } = await signedIn(['support']);
    for (const path of [
      '/console/orders?status=lost',
      '/console/orders?environment=prod%27',
      '/console/orders?partner=1%27%20or%201=1',
      '/console/orders?after=dlv_%00',
      '/console/orders?q=%00',
      `/console/orders?q=${'x'.repeat(101)}`,
      '/console/orders?status=a&status=b',
    ]) {
      expect((await web.get(path)).status, path).toBe(400);
    }
    expect((await web.get('/console/orders/dlv_nope')).status).toBe(404);
    expect((await web.get(`/console/orders/${created[0]!.slice(0, -1)}Z`)).status).toBeLessThan(
      500,
    );
    const page = await web.get(`/console/orders/${created[0]}`);
    const csrf = csrfOf(page.text);
    expect(
      (await web.post(`/console/orders/${created[0]}/status`, { _csrf: csrf, status: '<script>' }))
        .status,
    ).toBe(400);
    expect(
      (
        await web.post(`/console/orders/${created[0]}/status`, {
          _csrf: csrf,
          status: 'accepted',
          note: 'a\u0000b',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await web.post(`/console/orders/${created[0]}/status`, {
          _csrf: csrf,
          status: 'accepted',
          note: 'n'.repeat(501),
        })
      ).status,
    ).toBe(400);
    expect(
      (await web.post('/console/orders/dlv_nope/status', { _csrf: csrf, status: 'accepted' }))
        .status,
    ).toBe(404);
  });

  it('offers only the allowed next states, moves through them, audited as the operator; an illegal move is refused with a sentence', async () => {
    const { web, op } = await signedIn(['support']);
    const id = created[1]!;
    const page = await web.get(`/console/orders/${id}`);
    expect(page.status).toBe(200);
    expect(offered(page.text)).toEqual(['accepted', 'failed']);
    expect(page.text).toContain('Cancel order');
    const csrf = csrfOf(page.text);
    const moved = await web.post(`/console/orders/${id}/status`, {
      _csrf: csrf,
      status: 'accepted',
      note: 'Rider Kofi',
    });
    expect(moved.status).toBe(200);
    expect(moved.text).toContain('Moved to accepted.');
    expect(offered(moved.text)).toEqual(['pickedUp', 'failed']);
    expect(moved.text).toContain('Rider Kofi');
    // Skipping a state is what the status machine forbids: the operator service's 409, shown on the page.
    const illegal = await web.post(`/console/orders/${id}/status`, {
      _csrf: csrf,
      status: 'delivered',
    });
    expect(illegal.status).toBe(409);
    expect(illegal.text).toContain('Not moved:');
    expect(illegal.text).toMatch(/accepted/);
    const cancelled = await web.post(`/console/orders/${id}/cancel`, {
      _csrf: csrf,
      reason: 'Customer unreachable',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('Cancelled.');
    expect(offered(cancelled.text)).toEqual([]);
    expect(cancelled.text).not.toContain('Cancel order');
    expect((await web.post(`/console/orders/${id}/cancel`, { _csrf: csrf })).status).toBe(409);
    expect((await storedOrder(p, id)).status).toBe('cancelled');
    const audit = await audited(p, { action: 'delivery_order.status_change', target_id: id });
    expect(
      audit
        .map((a) => [a.actor.id, a.target?.id, a.after.status])
        .sort((a, b) => a[2]!.localeCompare(b[2]!)),
    ).toEqual([
      [op.id, id, 'accepted'],
      [op.id, id, 'cancelled'],
    ]);
  });

  it('records a failed delivery attempt with its reason: another attempt while one is left, then the return', async () => {
    const { web } = await signedIn(['support']);
    const id = created[4]!;
    for (const st of ['accepted', 'pickedUp', 'in_transit'])
      expect((await p.admin('POST', `/delivery/orders/${id}/status`, { status: st })).status).toBe(
        200,
      );
    const page = await web.get(`/console/orders/${id}`);
    expect(offered(page.text)).toEqual(['in_transit', 'delivered', 'returning', 'failed']);
    expect(page.text).toContain('in_transit (another delivery attempt)');
    expect(page.text).toContain('<option value="recipient_absent">Recipient absent</option>');
    const csrf = csrfOf(page.text);
    const unexplained = await web.post(`/console/orders/${id}/status`, {
      _csrf: csrf,
      status: 'returning',
    });
    expect(unexplained.status).toBe(400);
    expect(unexplained.text).toContain('Not moved: A return needs a failure_reason');
    expect(
      (
        await web.post(`/console/orders/${id}/status`, {
          _csrf: csrf,
          status: 'returning',
          failure_reason: 'stolen',
        })
      ).status,
    ).toBe(400);
    // Each move a second after the last: the audit entries read back in the order they were made.
    now += 1000;
    const again = await web.post(`/console/orders/${id}/status`, {
      _csrf: csrf,
      status: 'in_transit',
      failure_reason: 'recipient_absent',
      note: 'Nobody home',
    });
    expect(again.status).toBe(200);
    expect(again.text).toContain('Recipient absent: Nobody home (2 delivery attempts)');
    expect(offered(again.text)).toEqual(['delivered', 'returning', 'failed']);
    now += 1000;
    const back = await web.post(`/console/orders/${id}/status`, {
      _csrf: csrf,
      status: 'returning',
      failure_reason: 'refused',
    });
    expect(back.status).toBe(200);
    expect(offered(back.text)).toEqual(['returned', 'failed']);
    expect(back.text).not.toContain('Cancel order');
    now += 1000;
    const returned = await web.post(`/console/orders/${id}/status`, {
      _csrf: csrf,
      status: 'returned',
    });
    expect(returned.status).toBe(200);
    expect(offered(returned.text)).toEqual([]);
    expect(returned.text).toContain('Returned to the pickup point');
    const audit = await audited(p, {
      action: 'delivery_order.status_change',
      target_id: id,
      actor_kind: 'operator',
    });
    expect(audit.map((a) => [a.after.status, a.after.failure_reason ?? null])).toEqual([
      ['in_transit', 'recipient_absent'],
      ['returning', 'refused'],
      ['returned', null],
    ]);
  });

  it('finance reads orders but gets 403 on moves and cancels, and is offered none', async () => {
    const { web } = await signedIn(['finance']);
    const id = created[2]!;
    const page = await web.get(`/console/orders/${id}`);
    expect(page.status).toBe(200);
    expect(offered(page.text)).toEqual([]);
    expect(page.text).not.toContain('Cancel order');
    const csrf = csrfOf(page.text);
    expect(
      (await web.post(`/console/orders/${id}/status`, { _csrf: csrf, status: 'accepted' })).status,
    ).toBe(403);
    expect((await web.post(`/console/orders/${id}/cancel`, { _csrf: csrf })).status).toBe(403);
    expect((await storedOrder(p, id)).status).toBe('placed');
  });

  it('refuses a move without the session’s CSRF token or from another site', async () => {
    const { web } = await signedIn(['admin']);
    const id = created[3]!;
    expect((await web.post(`/console/orders/${id}/status`, { status: 'accepted' })).status).toBe(
      403,
    );
    expect(
      (await web.post(`/console/orders/${id}/status`, { _csrf: 'forged', status: 'accepted' }))
        .status,
    ).toBe(403);
    expect((await storedOrder(p, id)).status).toBe('placed');
  });
});
