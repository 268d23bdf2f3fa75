import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertBalanced } from '../../ledger/index.ts';
import { saleSettlementJournal } from './journals.ts';
import { commissionOf, decompose, rateToBps } from './money.ts';

const pesewas = (max = 1e12) => fc.integer({ min: 0, max });

describe('rateToBps', () => {
  it('reads rates with up to 4 decimals exactly and refuses the rest', () => {
    expect([0, 0.07, 0.1, 0.125, 0.1234, 1].map(rateToBps)).toEqual([
      0, 700, 1000, 1250, 1234, 10000,
    ]);
    expect([0.12345, -0.1, 1.01, Number.NaN, 1e-7].map(rateToBps)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('commissionOf', () => {
  it('rounds half up to a whole pesewa', () => {
    expect(commissionOf(1005, 1250)).toBe(126); // 125.625
    expect(commissionOf(1000, 1250)).toBe(125);
    expect(commissionOf(4, 1250)).toBe(1); // 0.5 rounds up
    expect(commissionOf(3, 1250)).toBe(0); // 0.375 rounds down
    expect(commissionOf(999_999_999_999, 10_000)).toBe(999_999_999_999);
  });

  it('is within half a pesewa of the exact share and never above the subtotal', () => {
    fc.assert(
      fc.property(pesewas(), fc.integer({ min: 0, max: 10_000 }), (subtotal, bps) => {
        const c = commissionOf(subtotal, bps);
        expect(Number.isSafeInteger(c)).toBe(true);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(subtotal);
        expect(Math.abs(c - (subtotal * bps) / 10_000)).toBeLessThanOrEqual(
          0.5 + 1e-6 * Math.max(1, subtotal / 1e6),
        );
      }),
    );
  });
});

describe('settlement decomposition', () => {
  const sale = fc
    .record({
      subtotal: fc.integer({ min: 1, max: 1e12 }),
      bps: fc.integer({ min: 0, max: 10_000 }),
      deliveryFee: pesewas(1e7),
      markupShare: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ subtotal, bps, deliveryFee, markupShare }) => ({
      subtotal,
      commission: commissionOf(subtotal, bps),
      deliveryFee,
      markup: Math.floor(subtotal * markupShare),
    }));

  it('always balances: buyer money in equals the four shares', () => {
    fc.assert(
      fc.property(sale, (m) => {
        const d = decompose(m);
        expect(d.vendorPayable + d.commission + d.deliveryRevenue + d.partnerMarkup).toBe(
          d.buyerPays,
        );
        expect(d.buyerPays).toBe(m.subtotal + m.deliveryFee + m.markup);
        expect(d.vendorPayable).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('builds settlement journals that balance, without zero entries, from either source of the money', () => {
    fc.assert(
      fc.property(sale, fc.boolean(), (m, prepaid) => {
        const d = decompose(m);
        const amounts = {
          saleId: 'sale_1',
          vendorId: 'ven_1',
          partnerId: 'ptn_1',
          vendorPayable: d.vendorPayable,
          commission: d.commission,
          deliveryFee: d.deliveryRevenue,
          markup: d.partnerMarkup,
        };
        const settlement = saleSettlementJournal(amounts, prepaid ? 'undelivered' : 'cash');
        expect(() => assertBalanced(settlement)).not.toThrow();
        expect(settlement.entries.every((e) => e.amountPesewas !== 0 && !e.walletOf)).toBe(true);
        expect(settlement.entries[0]).toEqual({
          account: prepaid ? 'sales_undelivered' : 'rider_cash_clearing',
          amountPesewas: -d.buyerPays,
        });
      }),
    );
  });

  it('refuses amounts that are not whole pesewas or a commission above the subtotal', () => {
    expect(() => decompose({ subtotal: 100, commission: 101, deliveryFee: 0, markup: 0 })).toThrow(
      RangeError,
    );
    expect(() => decompose({ subtotal: 100.5, commission: 1, deliveryFee: 0, markup: 0 })).toThrow(
      RangeError,
    );
  });
});
