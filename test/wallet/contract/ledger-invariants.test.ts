import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import {
  balance,
  decide,
  expectLedgerConsistent,
  initiate,
  verify,
  walletPartner,
} from '../helpers.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

type Op =
  | { kind: 'topup'; amount: number; pay: boolean }
  | { kind: 'spend' }
  | { kind: 'cancel'; pick: number }
  | { kind: 'refunds' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('topup' as const),
    amount: fc.integer({ min: 30, max: 200 }),
    pay: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('spend' as const) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('refunds' as const) }),
);

describe('ledger invariants under concurrent top-ups, spends, failures and refunds', () => {
  it('every journal balances and every wallet equals its entries, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 5, maxLength: 25 }),
        fc.integer({ min: 0, max: 100 }),
        async (ops, creditLimit) => {
          const s = await walletPartner(p);
          await p.admin('PATCH', `/partners/${s.partnerId}`, { credit_limit_ghs: creditLimit });
          const orders: string[] = [];
          const spend = () => {
            const body = orderBody({ payment: { payer: 'partner' } });
            body.pickup.coordinates = ACCRA_CENTRAL;
            body.delivery.coordinates = EAST_LEGON;
            return s.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
          };
          // Run the operations in concurrent waves of up to five.
          for (let i = 0; i < ops.length; i += 5) {
            await Promise.all(
              ops.slice(i, i + 5).map(async (o) => {
                if (o.kind === 'topup') {
                  const t = await initiate(s, o.amount);
                  if (o.pay) await decide(t.checkout_url, 'pay');
                  const v = await verify(s, t.client_reference);
                  expect(v.status).toBe(200);
                } else if (o.kind === 'spend') {
                  const res = await spend();
                  expect([201, 402]).toContain(res.status);
                  if (res.status === 201) orders.push(res.body.data.order_details.order_id);
                } else if (o.kind === 'cancel' && orders.length > 0) {
                  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.cancel', {
                    body: { order_id: orders[o.pick % orders.length] },
                  });
                  expect([200, 400]).toContain(res.status);
                } else if (o.kind === 'refunds') {
                  await p.app.platform.delivery!.refunds.tick();
                }
              }),
            );
          }
          await p.app.platform.delivery!.refunds.tick();
          await expectLedgerConsistent(p);
          // Nothing but the credit limit lets the balance go below zero.
          expect(await balance(s)).toBeGreaterThanOrEqual(-creditLimit);
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});
