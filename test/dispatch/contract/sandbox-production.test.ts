import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import type { DispatchModule } from '../../../src/modules/dispatch/index.ts';
import {
  expectLedgerBalanced,
  getSale,
  journals,
  orderBody as saleBody,
  placed,
  salesPartner,
  shop,
  verifySale,
} from '../../catalog/helpers.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { allTexts } from '../../helpers/outbox-read.ts';
import { legsAbout } from '../../helpers/ledger-read.ts';
import { orderFee, orderOf, saleTotal } from '../../helpers/orders-read.ts';
import { allOffDuty, courierNear, offeredTo, productionOrder } from '../helpers.ts';

// The local playground (npm run demo): SANDBOX_COURIER_FOR_PRODUCTION=on gives this machine's
// production orders to the sandbox courier, and to no real courier.
let p: TestPlatform;
let production: PartnerSetup;
let dispatch: DispatchModule;
let now = Date.now();
beforeAll(async () => {
  p = await startPlatform({
    socket: false,
    clock: () => now,
    env: { SANDBOX_COURIER_FOR_PRODUCTION: 'on' },
  });
  production = await createPartner(p, { environment: 'production' });
  dispatch = p.app.platform.dispatch!;
});
afterAll(() => p.close());

const q = <T = any>(sql: string, params: unknown[] = []) => p.app.platform.db.query<T>(sql, params);
/** One step of the default 30 s schedule, then the sandbox courier's round (and the dispatcher's). */
const step = async () => {
  now += 31_000;
  await dispatch.offers.tick();
  return dispatch.sandbox.tick();
};
const statusOf = async (owner: PartnerSetup, id: string) => (await orderOf(owner, id)).status;

describe('the sandbox courier on a local playground', () => {
  it('takes production orders through every stage, offers none to a real courier on duty at the pickup, and texts nobody', async () => {
    await allOffDuty(p);
    const real = await courierNear(p, 0.2, now);
    const sim = await dispatch.sandbox.courierId();
    const texts = (await allTexts(p)).length;
    const id = await productionOrder(production);
    for (let i = 0; i < 5; i++) await step();
    expect(await statusOf(production, id)).toBe('delivered');
    expect(
      await q('select courier_id, state from dispatch_offers where order_id = $1', [id]),
    ).toEqual([{ courier_id: sim, state: 'accepted' }]);
    expect(
      await countRows(p, 'select count(*)::int as n from dispatch_offers where courier_id = $1', [
        real.id,
      ]),
    ).toBe(0);
    expect(
      await q(`select kind, courier_id from delivery_proofs where order_id = $1`, [id]),
    ).toEqual([{ kind: 'code', courier_id: sim }]);
    // Its recipient is test data like staging's: no delivery code by text.
    expect((await allTexts(p)).length).toBe(texts);
    // A recipient-paid fee is collected on the simulated courier's own cash account, never a real courier's.
    const fee = await orderFee(production, id);
    const legs = await legsAbout(p, ['courier_cash_collected'], id);
    expect(legs).toEqual([
      { account: `courier_cash:${sim}`, amount_pesewas: -fee },
      { account: 'delivery_revenue', amount_pesewas: fee },
    ]);
    expect(
      await countRows(p, 'select count(*)::int as n from ledger_entries where account = $1', [
        `courier_cash:${real.id}`,
      ]),
    ).toBe(0);
  });

  it('is the only courier an operator may give a production order to', async () => {
    now = Date.now(); // signed requests carry the real time: stay within the allowed clock skew
    await allOffDuty(p);
    const real = await courierNear(p, 0.2, now);
    const id = await productionOrder(production);
    const refused = await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: real.id });
    expect([refused.status, refused.body.code]).toEqual([409, 'INVALID_TRANSITION']);
    expect(refused.body.message).toContain('only the sandbox courier takes production orders here');
    expect(await offeredTo(p, id)).toBeNull();
    const sim = await dispatch.sandbox.courierId();
    expect(
      (await p.admin('POST', `/dispatch/orders/${id}/assign`, { courier_id: sim })).status,
    ).toBe(200);
    await p.admin('POST', `/delivery/orders/${id}/status`, { status: 'cancelled' });
  });

  it('delivers a cod sale, which settles on the books with the cash on the simulated courier and every journal balanced', async () => {
    now = Date.now();
    const seller = await salesPartner(p);
    const sale = await placed(seller, saleBody(await shop(p)));
    const orderId = (await getSale(seller, { sale_id: sale.sale_id })).body.data.delivery
      .order_id as string;
    for (let i = 0; i < 5; i++) await step();
    expect(await statusOf(seller, orderId)).toBe('delivered');
    const verified = await verifySale(seller, sale.sale_id);
    expect(verified.body.data).toMatchObject({
      state: 'confirmed',
      settled: true,
      delivery_status: 'delivered',
    });
    const total = await saleTotal(seller, sale.sale_id);
    const sim = await dispatch.sandbox.courierId();
    const cash = await legsAbout(p, ['courier_cash_collected'], orderId);
    expect(cash).toEqual([
      { account: `courier_cash:${sim}`, amount_pesewas: -total },
      { account: 'rider_cash_clearing', amount_pesewas: total },
    ]);
    expect((await journals(p, sale.sale_id)).map((j) => j.kind)).toEqual(['sale_settlement']);
    await expectLedgerBalanced(p);
    const trial = await q<{ s: string }>(
      'select coalesce(sum(amount_pesewas), 0)::bigint as s from ledger_entries',
    );
    expect(Number(trial[0]!.s)).toBe(0);
  });
});

describe('the playground switches', () => {
  const local = { DATABASE_URL: 'memory:', PUBLIC_BASE_URL: 'http://localhost:8080' };

  it('are refused, in one line, unless the public address is this machine', () => {
    for (const base of ['http://localhost:8080', 'http://127.0.0.1:9000', 'http://[::1]:8080']) {
      expect(
        loadConfig({
          ...local,
          PUBLIC_BASE_URL: base,
          DEMO: 'on',
          SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on',
          SANDBOX_COURIER_FOR_PRODUCTION: 'on',
        }).dispatch.sandboxForProduction,
      ).toBe(true);
    }
    for (const base of [
      'https://partners.example.gh',
      'http://192.168.1.20:8080',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
    ]) {
      for (const name of [
        'DEMO',
        'SANDBOX_PAYMENTS_FOR_PRODUCTION',
        'SANDBOX_COURIER_FOR_PRODUCTION',
      ]) {
        expect(
          // Push off: a public address without VAPID keys is its own refusal.
          () => loadConfig({ ...local, PUBLIC_BASE_URL: base, WEB_PUSH: 'off', [name]: 'on' }),
          `${name} at ${base}`,
        ).toThrow(
          new RegExp(
            `^invalid configuration: ${name}=on: a local playground's switches, only when PUBLIC_BASE_URL is this machine \\(localhost, 127\\.x or \\[::1\\]\\), not ${base.replace(/[.[\]]/g, '\\$&')}$`,
          ),
        );
      }
    }
  });

  it('let the sandbox courier deliver production orders only where no real money can follow (sandbox gateway and transfers)', () => {
    const courier = { ...local, SANDBOX_COURIER_FOR_PRODUCTION: 'on' };
    const paystack = { PAYSTACK_SECRET_KEY: 'sk_test_abc123' };
    for (const env of [
      { PAYMENT_GATEWAY: 'paystack', ...paystack },
      { PAYOUT_PROVIDER: 'paystack', ...paystack },
      { HUBTEL_API_ID: 'id', HUBTEL_API_KEY: 'k', HUBTEL_MERCHANT_ACCOUNT: '1' },
    ]) {
      expect(() => loadConfig({ ...courier, ...env })).toThrow(
        /SANDBOX_COURIER_FOR_PRODUCTION=on needs sandbox money: PAYMENT_GATEWAY and PAYOUT_PROVIDER must be sandbox/,
      );
    }
    expect(
      loadConfig({ ...courier, PAYMENT_GATEWAY: 'sandbox', PAYOUT_PROVIDER: 'sandbox' }).dispatch
        .sandboxForProduction,
    ).toBe(true);
  });

  it('keep the playground on the embedded database', () => {
    expect(() =>
      loadConfig({
        ...local,
        DATABASE_URL: 'postgres://u@127.0.0.1/db',
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
        DEMO: 'on',
      }),
    ).toThrow(/DEMO=on \(npm run demo\) runs on the embedded database only: unset DATABASE_URL/);
    expect(loadConfig({ ...local, DEMO: 'on' })).toMatchObject({
      demo: true,
      sandboxQuickstart: true,
    });
  });
});
