import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import {
  getSale,
  orderBody,
  placed,
  reversalCheckDue,
  salesPartner,
  shop,
  verifySale,
} from '../../catalog/helpers.ts';
import { hubtelEnv, startFakeHubtel, type FakeHubtel } from '../../fakes/hubtel.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { audited as readAudit } from '../../helpers/audit.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { refundOf } from '../../helpers/dispatch-read.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { clientReferenceOf } from '../../helpers/orders-read.ts';
import { csrfOf, type WebClient } from '../../helpers/web.ts';

// Buyer refunds in the console: the list by state, the wallet a mobile money refund waits for, and
// the retry of a failed one; both actions CSRF-checked and audited, refusals shown and changing nothing.

describe('buyer refunds in the console (finance, admin)', () => {
  let hubtel: FakeHubtel;
  let p: TestPlatform;
  let now = Date.now();
  let finance: WebClient;
  let saleId = '';
  const transfers = new FakeTransfers();
  const signedIn = async (roles: OperatorRole[]) =>
    (await signedInOperator(p, roles, () => (now += TOTP_STEP_MS))).web;
  const audited = async (action: string) =>
    (await readAudit(p, { action, target_id: saleId })).length;
  const refundState = async () => (await refundOf(p, saleId))?.status;

  beforeAll(async () => {
    hubtel = await startFakeHubtel();
    p = await startPlatform({ socket: false, clock: () => now, env: hubtelEnv(hubtel), transfers });
    finance = await signedIn(['finance']);
    // A Hubtel-paid sale whose delivery was cancelled: Hubtel cannot refund, so mobile money.
    const s = await salesPartner(p);
    const sale = await placed(s, orderBody(await shop(p), { payment_method: 'online' }));
    saleId = sale.sale_id;
    hubtel.pay(await clientReferenceOf(p, saleId));
    await verifySale(s, saleId);
    const orderId = (await getSale(s, { sale_id: saleId })).body.data.delivery.order_id;
    await p.admin('POST', `/delivery/orders/${orderId}/status`, { status: 'cancelled' });
    await p.app.platform.catalog!.refunds.tick();
  });
  afterAll(async () => {
    await p?.close();
    await hubtel?.close();
  });

  it('lists refunds by state for finance only, linking each to its sale', async () => {
    expect((await (await signedIn(['support'])).get('/console/refunds')).status).toBe(403);
    expect((await finance.get('/console/refunds?status=bogus')).status).toBe(400);
    const pending = await finance.get('/console/refunds?status=pending');
    expect(pending.status).toBe(200);
    expect(pending.text).toContain(`href="/console/sales/${saleId}"`);
    expect(pending.text).toContain('needs a wallet');
    expect((await finance.get('/console/refunds?status=succeeded')).text).not.toContain(saleId);
    expect((await finance.get('/console/sales')).text).toContain('href="/console/refunds"');
  });

  it('takes the wallet on the sale page, refuses a bad one, and retries a failed transfer', async () => {
    const page = await finance.get(`/console/sales/${saleId}`);
    expect(page.text).toContain('Refund to the buyer');
    expect(page.text).toContain(`action="/console/sales/${saleId}/refund/wallet"`);
    expect(page.text).not.toContain('/refund/retry');
    const bad = await finance.post(`/console/sales/${saleId}/refund/wallet`, {
      _csrf: csrfOf(page.text),
      network: 'glo',
      number: '024 555 0101',
      name: 'Ama Mensah',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Nothing was sent');
    expect(await audited('sale_refund.wallet')).toBe(0);
    expect(await refundState()).toBe('pending');

    transfers.knobs.push('fail');
    const failed = await finance.post(`/console/sales/${saleId}/refund/wallet`, {
      _csrf: csrfOf(page.text),
      network: 'mtn',
      number: '024 555 0101',
      name: 'Ama Mensah',
    });
    expect(failed.status).toBe(200);
    expect(failed.text).toContain('Refund failed');
    expect(await audited('sale_refund.wallet')).toBe(1);
    expect(failed.text).toContain(`action="/console/sales/${saleId}/refund/retry"`);

    const retried = await finance.post(`/console/sales/${saleId}/refund/retry`, {
      _csrf: csrfOf(failed.text),
    });
    expect(retried.status).toBe(200);
    expect(retried.text).toContain('Refund succeeded.');
    expect(await audited('sale_refund.retry')).toBe(1);
    expect(await refundState()).toBe('succeeded');
    expect(retried.text).toContain('mtn 0245550101 (Ama Mensah)');
    expect(retried.text).toContain('Refunded to the buyer');
    const again = await finance.post(`/console/sales/${saleId}/refund/retry`, {
      _csrf: csrfOf(retried.text),
    });
    expect(again.status).toBe(409);
    expect(await audited('sale_refund.retry')).toBe(1);
    expect((await finance.get('/console/refunds?status=succeeded')).text).toContain(saleId);
  });

  it('shows a refund the provider reversed after success, and sends it again from the sale page', async () => {
    const reference: string = (await refundOf(p, saleId)).reference;
    transfers.settle(reference, 'reversed');
    await reversalCheckDue(p, saleId);
    await p.app.platform.catalog!.refunds.tick();
    expect(await refundState()).toBe('reversed');
    const listed = await finance.get('/console/refunds?status=reversed');
    expect(listed.text).toContain(`href="/console/sales/${saleId}"`);
    expect(listed.text).toContain('reversed by the bank');
    const page = await finance.get(`/console/sales/${saleId}`);
    expect(page.text).toContain('Refund reversed by the provider: owed to the buyer again');
    expect(page.text).toContain('the provider returned it');
    expect(page.text).toContain(`action="/console/sales/${saleId}/refund/retry"`);
    expect(page.text).toContain(`action="/console/sales/${saleId}/refund/wallet"`);
    const retried = await finance.post(`/console/sales/${saleId}/refund/retry`, {
      _csrf: csrfOf(page.text),
    });
    expect(retried.status).toBe(200);
    expect(retried.text).toContain('Refund succeeded.');
    expect(await audited('sale_refund.retry')).toBe(2);
    expect(await refundState()).toBe('succeeded');
  });
});
