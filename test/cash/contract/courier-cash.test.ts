import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchModule } from '../../../src/modules/dispatch/index.ts';
import {
  getSale,
  orderBody as saleBody,
  placed,
  salesPartner,
  shop,
} from '../../catalog/helpers.ts';
import { audited } from '../../helpers/audit.ts';
import { codeOf, courierNear, productionOrder, toDropoff } from '../../dispatch/helpers.ts';
import {
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { accountBalance, journalCount, legsAbout } from '../../helpers/ledger-read.ts';
import { orderFee, orderOf, saleTotal } from '../../helpers/orders-read.ts';
import { operatorWithToken } from '../../operators/helpers.ts';

let p: TestPlatform;
let s: PartnerSetup;
let dispatch: DispatchModule;
const now = Date.now();
beforeAll(async () => {
  p = await startPlatform({ socket: false, clock: () => now });
  s = await createPartner(p, { environment: 'production' });
  dispatch = p.app.platform.dispatch!;
});
afterAll(() => p.close());

const atDropoff = (orderId: string, courierId: string) => toDropoff(p, orderId, courierId);

const feeOf = (orderId: string) => orderFee(s, orderId);
const legs = (subject: string, kind: string) => legsAbout(p, [kind], subject);
const balanceOf = async (courierId: string) =>
  (await p.admin('GET', `/cash/couriers/${courierId}`)).body.balance_pesewas as number;
const sum = (rows: Array<{ amount_pesewas: number }>) =>
  rows.reduce((n, r) => n + Number(r.amount_pesewas), 0);

describe('cash collected on delivery', () => {
  it("posts a recipient-paid fee to the courier's cash account, once, balanced", async () => {
    const c = await courierNear(p, 1, now);
    const id = await productionOrder(s);
    const fee = await feeOf(id);
    await atDropoff(id, c.id);
    expect((await dispatch.service.delivered(c.id, id, { cashCollectedPesewas: fee })).status).toBe(
      'delivered',
    );
    expect(await legs(id, 'courier_cash_collected')).toEqual([
      { account: `courier_cash:${c.id}`, amount_pesewas: -fee },
      { account: 'delivery_revenue', amount_pesewas: fee },
    ]);
    // A delivered job takes no second delivery, and posts nothing more (the courier app's replay
    // of the same action is answered by its action record: test/couriers/contract/one-action-record).
    expect(await codeOf(dispatch.service.delivered(c.id, id, { cashCollectedPesewas: fee }))).toBe(
      'NOT_YOUR_JOB',
    );
    expect(await journalCount(p, ['courier_cash_collected'], id)).toBe(1);
    expect(await balanceOf(c.id)).toBe(fee);
  });

  it('posts exactly once when two delivered actions race', async () => {
    const c = await courierNear(p, 1, now);
    const id = await productionOrder(s);
    const fee = await feeOf(id);
    await atDropoff(id, c.id);
    const results = await Promise.allSettled([
      dispatch.service.delivered(c.id, id),
      dispatch.service.delivered(c.id, id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await journalCount(p, ['courier_cash_collected'], id)).toBe(1);
    expect(await balanceOf(c.id)).toBe(fee);
  });

  it('refuses a delivery whose stated cash differs from what is due, and bad amounts, changing nothing', async () => {
    const c = await courierNear(p, 1, now);
    const id = await productionOrder(s);
    const fee = await feeOf(id);
    await atDropoff(id, c.id);
    expect(
      await codeOf(dispatch.service.delivered(c.id, id, { cashCollectedPesewas: fee - 1 })),
    ).toBe('CASH_AMOUNT_MISMATCH');
    for (const bad of [-5, 1.5, Number.MAX_SAFE_INTEGER + 2, 1e20])
      expect(
        await codeOf(dispatch.service.delivered(c.id, id, { cashCollectedPesewas: bad })),
      ).toBe('VALIDATION_ERROR');
    expect((await orderOf(s, id)).status).toBe('in_transit');
    expect(await balanceOf(c.id)).toBe(0);
    expect((await dispatch.service.delivered(c.id, id, { cashCollectedPesewas: fee })).status).toBe(
      'delivered',
    );
  });

  it("moves a cod sale's cash from the riders' clearing to the courier, keeping the settlement whole", async () => {
    const sp = await salesPartner(p);
    const sale = await placed(sp, saleBody(await shop(p)));
    const orderId = (await getSale(sp, { sale_id: sale.sale_id })).body.data.delivery
      .order_id as string;
    const c = await courierNear(p, 1, now);
    await atDropoff(orderId, c.id);
    const total = await saleTotal(sp, sale.sale_id);
    expect(
      await codeOf(
        dispatch.service.delivered(c.id, orderId, { cashCollectedPesewas: total + 100 }),
      ),
    ).toBe('CASH_AMOUNT_MISMATCH');
    await dispatch.service.delivered(c.id, orderId, { cashCollectedPesewas: total });
    expect(await legs(orderId, 'courier_cash_collected')).toEqual([
      { account: `courier_cash:${c.id}`, amount_pesewas: -total },
      { account: 'rider_cash_clearing', amount_pesewas: total },
    ]);
    const settlement = await legs(sale.sale_id, 'sale_settlement');
    expect(settlement.find((l) => l.account === 'rider_cash_clearing')?.amount_pesewas).toBe(
      -total,
    );
    expect(
      sum(
        await p.app.platform.db.query(
          "select amount_pesewas from ledger_entries where account = 'rider_cash_clearing' and journal_id in (select id from ledger_journals where subject_id in ($1, $2))",
          [orderId, sale.sale_id],
        ),
      ),
    ).toBe(0);
    expect(await balanceOf(c.id)).toBe(total);
  });
});

describe('cash handovers', () => {
  it('reduces the balance through a balanced journal, refuses more than held, and is audited', async () => {
    const c = await courierNear(p, 1, now);
    const id = await productionOrder(s);
    const fee = await feeOf(id);
    await atDropoff(id, c.id);
    await dispatch.service.delivered(c.id, id);
    const finance = await operatorWithToken(p, ['finance']);

    const over = await p.admin(
      'POST',
      `/cash/couriers/${c.id}/handovers`,
      { amount_pesewas: fee + 1 },
      finance.token,
    );
    expect([over.status, over.body.code]).toEqual([409, 'HANDOVER_EXCEEDS_BALANCE']);
    const part = await p.admin(
      'POST',
      `/cash/couriers/${c.id}/handovers`,
      { amount_pesewas: fee - 100 },
      finance.token,
    );
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body).toMatchObject({
      balance_pesewas: 100,
      handover: { courier_id: c.id, amount_pesewas: fee - 100, recorded_by: finance.id },
    });
    const journal = await legs(part.body.handover.id, 'courier_cash_handover');
    expect(journal).toEqual([
      { account: `courier_cash:${c.id}`, amount_pesewas: fee - 100 },
      { account: 'platform_cash', amount_pesewas: -(fee - 100) },
    ]);
    expect(sum(journal)).toBe(0);
    // The ledger account and the cached balance agree.
    expect(-(await accountBalance(p, `courier_cash:${c.id}`))).toBe(100);
    expect(
      (await audited(p, { action: 'courier_cash.handover', target_id: c.id })).length,
    ).toBeGreaterThanOrEqual(1);

    const read = await p.admin('GET', `/cash/couriers/${c.id}`, undefined, finance.token);
    expect(read.body).toMatchObject({
      balance_pesewas: 100,
      handovers: [{ id: part.body.handover.id }],
    });
    expect(
      (await p.admin('GET', '/cash/couriers', undefined, finance.token)).body.data,
    ).toContainEqual(expect.objectContaining({ courier_id: c.id, balance_pesewas: 100 }));
  });

  it('refuses bad amounts and a courier with no cash, changing nothing', async () => {
    const c = await courierNear(p, 1, now);
    for (const amount of [0, -1, 1.5, 1e20, '100', null]) {
      const res = await p.admin('POST', `/cash/couriers/${c.id}/handovers`, {
        amount_pesewas: amount,
      });
      expect(res.status, JSON.stringify(amount)).toBe(400);
    }
    expect(
      (await p.admin('POST', `/cash/couriers/${c.id}/handovers`, { amount_pesewas: 100, extra: 1 }))
        .status,
    ).toBe(400);
    expect(
      (await p.admin('POST', '/cash/couriers/cou\u0000x/handovers', { amount_pesewas: 100 }))
        .status,
    ).toBe(400);
    expect(
      (await p.admin('POST', `/cash/couriers/${c.id}/handovers`, { amount_pesewas: 100 })).body
        .code,
    ).toBe('HANDOVER_EXCEEDS_BALANCE');
    expect(
      await countRows(
        p,
        'select count(*)::int as n from courier_cash_handovers where courier_id = $1',
        [c.id],
      ),
    ).toBe(0);
  });

  it('is for finance and admin only', async () => {
    const c = await courierNear(p, 1, now);
    const support = await operatorWithToken(p, ['support']);
    expect((await p.admin('GET', '/cash/couriers', undefined, support.token)).status).toBe(403);
    expect((await p.admin('GET', `/cash/couriers/${c.id}`, undefined, support.token)).status).toBe(
      403,
    );
    expect(
      (
        await p.admin(
          'POST',
          `/cash/couriers/${c.id}/handovers`,
          { amount_pesewas: 1 },
          support.token,
        )
      ).body.code,
    ).toBe('FORBIDDEN');
    const admin = await operatorWithToken(p, ['admin']);
    expect((await p.admin('GET', '/cash/couriers', undefined, admin.token)).status).toBe(200);
  });
});
