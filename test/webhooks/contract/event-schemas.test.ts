import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUYER_WALLET,
  decide,
  getSale,
  orderBody as saleBody,
  placed,
  reversalCheckDue,
  salesPartner,
  shop,
  verifySale,
} from '../../catalog/helpers.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import { courierNear, PICKUP, productionOrder } from '../../dispatch/helpers.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { closed, deref } from '../../helpers/openapi.ts';
import { FakeTransfers } from '../../fakes/transfers.ts';
import { HOUR, setDestination, settleSale, runPayouts } from '../../payouts/helpers.ts';
import { topUp, walletPartner } from '../../wallet/helpers.ts';

// Every webhook event type of the reference, each produced by its real flow; then every event in
// the outbox validates against its documented schema, closed: the server sends no field the
// reference (and so the SDK's generated types) leaves out.

let p: TestPlatform;
let doc: Record<string, any>;
const transfers = new FakeTransfers();
beforeAll(async () => {
  p = await startPlatform({ transfers });
  doc = await (await p.fetch(`${p.url}/openapi.json`)).json();
});
afterAll(() => p.close());

const db = () => p.app.platform.db;
const move = (orderId: string, status: string, extra: Record<string, unknown> = {}) =>
  p.admin('POST', `/delivery/orders/${orderId}/status`, { status, ...extra });
/** What the sandbox gateway reports for a sale's checkout, as a real gateway would. */
const gatewayCollects = (saleId: string, set: string, value: number | string) =>
  db().query(
    `update sandbox_checkouts set ${set} = $2 where client_reference = (select client_reference from sales where id = $1)`,
    [saleId, value],
  );

/**
 * A top-up credited, then a wallet-funded order created, accepted, cancelled and its fee refunded;
 * another one tried twice and returned, with its return fee.
 */
async function deliveryAndWallet(): Promise<void> {
  const s = await walletPartner(p);
  await topUp(s, 200);
  const body = orderBody({ payment: { payer: 'partner' } });
  body.pickup.coordinates = ACCRA_CENTRAL;
  body.delivery.coordinates = EAST_LEGON;
  const created = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.order_details.order_id;
  await move(id, 'accepted');
  await s.client.send('POST', '/api/v1/delivery/orders.cancel', {
    body: { order_id: id, reason: 'Buyer unreachable' },
  });
  expect(await p.app.platform.delivery!.refunds.tick()).toBeGreaterThanOrEqual(1);
  const returned = (
    await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
      body: { ...body, order_reference: `${body.order_reference}-r` },
    })
  ).body.data.order_details.order_id;
  for (const st of ['accepted', 'pickedUp', 'in_transit']) await move(returned, st);
  expect((await move(returned, 'in_transit', { failure_reason: 'recipient_absent' })).status).toBe(
    200,
  );
  expect(
    (await move(returned, 'returning', { failure_reason: 'other', note: 'Gate locked' })).status,
  ).toBe(200);
  expect((await move(returned, 'returned')).status).toBe(200);
}

/** Sales paid and confirmed, failed with their delivery, held for a wrong amount, paid after failing and refunded, a refund reversed. */
async function sales(): Promise<void> {
  const s = await salesPartner(p);
  const b = await shop(p);
  const online = () => placed(s, saleBody(b, { payment_method: 'online' }));
  const paid = await online();
  await decide(paid.checkout_url, 'pay');
  await verifySale(s, paid.sale_id);
  const cod = await placed(s, saleBody(b));
  await move((await getSale(s, { sale_id: cod.sale_id })).body.data.delivery.order_id, 'cancelled');
  const held = await online();
  await gatewayCollects(held.sale_id, 'amount_pesewas', Math.round(held.total_ghs * 100) - 1);
  await decide(held.checkout_url, 'pay');
  await verifySale(s, held.sale_id);
  const late = await online();
  await decide(late.checkout_url, 'decline');
  await verifySale(s, late.sale_id);
  await gatewayCollects(late.sale_id, 'status', 'Paid');
  await verifySale(s, late.sale_id);
  const refunds = p.app.platform.catalog!.refunds;
  expect(await refunds.tick()).toMatchObject({ opened: 1 });
  // Paid through a gateway that cannot refund (as Hubtel), its delivery cancelled: refunded by mobile
  // money, which the provider then reverses (safe.order.refund_reversed).
  const reversed = await online();
  await decide(reversed.checkout_url, 'pay');
  await verifySale(s, reversed.sale_id);
  await db().query("update sales set gateway = 'hubtel' where id = $1", [reversed.sale_id]);
  await move(
    (await getSale(s, { sale_id: reversed.sale_id })).body.data.delivery.order_id,
    'cancelled',
  );
  await refunds.tick();
  transfers.settle((await refunds.sendTo(reversed.sale_id, BUYER_WALLET)).reference, 'reversed');
  await reversalCheckDue(p, reversed.sale_id);
  await refunds.tick();
}

/** A courier on a production order reports a position (delivery.courier.location). */
async function liveLocation(): Promise<void> {
  const s = await createPartner(p, { environment: 'production' });
  const courier = await courierNear(p, 1, Date.now());
  const id = await productionOrder(s);
  await p.app.platform.dispatch!.service.assign(id, courier.id);
  await p.app.platform.couriers.reportPosition(courier.id, { ...PICKUP, at: new Date() });
}

/**
 * A production order given a deadline nobody can meet any more (delivery.order.late). Its window is
 * written straight to the rows: orders.create would refuse one outside the service hours this test
 * runs in, on the real clock.
 */
async function lateWindow(): Promise<void> {
  const s = await createPartner(p, { environment: 'production' });
  const id = await productionOrder(s);
  const deadline = new Date(Date.now() + HOUR);
  await db().query('update delivery_orders set dropoff_deadline = $2 where id = $1', [
    id,
    deadline,
  ]);
  await db().query(
    'update dispatch_jobs set dropoff_deadline = $2, miss_at = $3 where order_id = $1',
    [id, deadline, new Date(Date.now() - 1000)],
  );
  await p.app.platform.dispatch!.windows.sweep();
}

/** A partner's markup paid out, then another payout of it failed (payout.paid, payout.failed). */
async function payouts(): Promise<void> {
  const s = await createPartner(p, { environment: 'production' });
  await setDestination(p, 'partner', s.partnerId, {
    kind: 'mobile_money',
    network: 'mtn',
    number: '024 765 4321',
    name: 'Test Partner Ltd',
  });
  await db().query(
    "update payout_destinations set changed_at = changed_at - interval '30 days' where payee = $1",
    [`partner:${s.partnerId}`],
  );
  const account = `partner_markup_payable:${s.partnerId}`;
  await settleSale(p, account, 2000, Date.now() - 30 * HOUR);
  await runPayouts(p);
  await settleSale(p, account, 1500, Date.now() - 30 * HOUR);
  transfers.knobs.push('fail');
  await runPayouts(p);
}

describe('webhook events ↔ /openapi.json', () => {
  it('every event the server emits validates against its documented schema, and every documented type is emitted', async () => {
    await Promise.all([deliveryAndWallet(), sales(), liveLocation(), lateWindow()]);
    // After the sales: their settlements owe vendors, which the runs pay too (vendors have no events).
    await payouts();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats' CommonJS default export, as src/platform/http/validation.ts calls it.
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const validators = new Map<string, ValidateFunction>();
    const validatorOf = (type: string) => {
      const hook = doc.webhooks[type]?.post;
      expect(hook, `${type} is not documented`).toBeDefined();
      return (
        validators.get(type) ??
        validators
          .set(
            type,
            ajv.compile(closed(deref(doc, hook.requestBody.content['application/json'].schema))),
          )
          .get(type)!
      );
    };
    const events = await db().query<{ type: string; payload: unknown }>(
      'select type, payload from outbox_events',
    );
    for (const { type, payload } of events) {
      const validate = validatorOf(type);
      expect(
        validate(payload) ? null : validate.errors,
        `${type}: ${JSON.stringify(payload)}`,
      ).toBeNull();
    }
    expect([...new Set(events.map((e) => e.type))].sort()).toEqual(
      Object.keys(doc.webhooks).sort(),
    );
  });
});
