import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type PartnerSetup, type TestPlatform } from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { orderBody, ACCRA_CENTRAL, EAST_LEGON } from '../../delivery/fixtures.ts';
import { balance, expectLedgerConsistent, topUp, walletPartner } from '../helpers.ts';

let p: TestPlatform;
/** The fee of a partner-paid order from central Accra to East Legon, as orders.estimate prices it. */
let FEE: number;
beforeAll(async () => {
  p = await startPlatform({ socket: false });
  const s = await walletPartner(p);
  const estimate = await s.client.send<any>('POST', '/api/v1/delivery/orders.estimate', {
    body: {
      pickup_location: { coordinates: ACCRA_CENTRAL },
      delivery_location: { coordinates: EAST_LEGON },
    },
  });
  FEE = estimate.body.data.estimated_price;
});
afterAll(() => p.close());

const paidOrder = (overrides: Record<string, unknown> = {}) => {
  const body = orderBody({ payment: { payer: 'partner', amount: 1 }, ...overrides });
  body.pickup.coordinates = ACCRA_CENTRAL;
  body.delivery.coordinates = EAST_LEGON;
  return body;
};
const create = (s: PartnerSetup, body: unknown) =>
  s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });

describe('wallet-funded orders', () => {
  it('debits the server-priced fee with the order, ignoring payment.amount', async () => {
    const s = await walletPartner(p);
    await topUp(s, 100);
    const res = await create(s, paidOrder());
    expect(res.status).toBe(201);
    const details = (
      await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
        body: { order_id: res.body.data.order_details.order_id },
      })
    ).body.data;
    expect(details.order_info).toMatchObject({ amount: FEE, payment_status: 'wallet_debited' });
    expect(await balance(s)).toBe(100 - FEE);
    await expectLedgerConsistent(p);
  });

  it('answers 402 when balance minus fee would pass minus the credit limit; the credit limit gives headroom', async () => {
    const s = await walletPartner(p);
    await topUp(s, 30);
    const body = paidOrder();
    const refused = await create(s, body);
    expect([refused.status, refused.body.code]).toEqual([402, 'INSUFFICIENT_WALLET_BALANCE']);
    expect(await balance(s)).toBe(30);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { credit_limit_ghs: FEE - 30 });
    expect((await create(s, body)).status).toBe(201);
    expect(await balance(s)).toBe(30 - FEE);
    expect((await create(s, paidOrder())).body.code).toBe('INSUFFICIENT_WALLET_BALANCE');
  });

  it('spends on credit before any top-up: the first order opens the wallet; past the limit, nothing is written', async () => {
    const s = await walletPartner(p);
    const refused = await create(s, paidOrder());
    expect([refused.status, refused.body.code]).toEqual([402, 'INSUFFICIENT_WALLET_BALANCE']);
    await p.admin('PATCH', `/partners/${s.partnerId}`, { credit_limit_ghs: FEE });
    const first = await create(s, paidOrder());
    expect(first.status).toBe(201);
    expect(await balance(s)).toBe(-FEE);
    const past = await create(s, paidOrder({ order_reference: 'credit-past-limit' }));
    expect([past.status, past.body.code]).toEqual([402, 'INSUFFICIENT_WALLET_BALANCE']);
    const lookup = await s.client.send<any>('POST', '/api/v1/delivery/orders.get', {
      body: { order_reference: 'credit-past-limit' },
    });
    expect(lookup.body.code).toBe('ORDER_NOT_FOUND');
    expect(await balance(s)).toBe(-FEE);
    await expectLedgerConsistent(p);
  });

  it('never overdraws: with room for 3 fees, 8 concurrent orders give exactly 3', async () => {
    const s = await walletPartner(p);
    await topUp(s, 3 * FEE + 10);
    const results = await Promise.all(Array.from({ length: 8 }, () => create(s, paidOrder())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.body.code === 'INSUFFICIENT_WALLET_BALANCE')).toHaveLength(5);
    expect(await balance(s)).toBe(10);
    await expectLedgerConsistent(p);
  });

  it('refunds a cancelled wallet-funded order shortly after, once, with wallet.refund.completed', async () => {
    const s = await walletPartner(p);
    await topUp(s, FEE + 5);
    const id = (await create(s, paidOrder())).body.data.order_details.order_id;
    await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'accepted' });
    await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'failed' });
    const cancelled = await s.client.send<any>('POST', '/api/v1/delivery/orders.cancel', {
      body: { order_id: id },
    });
    expect(cancelled.body.data.refund_status).toBe('pending');
    expect(await balance(s)).toBe(5);
    const refunds = p.app.platform.delivery!.refunds;
    expect(await refunds.tick()).toBeGreaterThanOrEqual(1);
    expect(await refunds.tick()).toBe(0);
    expect(await balance(s)).toBe(FEE + 5);
    const details = (
      await s.client.send<any>('POST', '/api/v1/delivery/orders.get', { body: { order_id: id } })
    ).body.data;
    expect(details.order_info.payment_status).toBe('refunded');
    const events: any[] = await eventsAbout(p, id, 'wallet.refund.completed');
    expect(events).toHaveLength(1);
    expect(events[0].payload.data).toMatchObject({
      order_id: id,
      amount_ghs: FEE,
      balance_ghs: FEE + 5,
    });
    await expectLedgerConsistent(p);
  });

  it('debits bulk items one by one; an item the wallet cannot cover fails alone', async () => {
    const s = await walletPartner(p);
    await topUp(s, 2 * FEE);
    const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
      body: { orders: [paidOrder(), paidOrder(), paidOrder(), orderBody()] },
    });
    expect(res.body.summary).toEqual({ total: 4, created: 3, failed: 1 });
    expect(
      res.body.results.filter((r: any) => r.code === 'INSUFFICIENT_WALLET_BALANCE'),
    ).toHaveLength(1);
    expect(res.body.results.find((r: any) => !r.ok).status_code).toBe(402);
    expect(await balance(s)).toBe(0);
    await expectLedgerConsistent(p);
  });
});
