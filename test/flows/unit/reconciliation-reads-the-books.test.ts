import { describe, expect, it } from 'vitest';
import {
  gatewayReferences,
  transferBooks,
} from '../../../src/flows/reconciliation-reads-the-books.ts';
import { RefundStatement } from '../../../src/modules/catalog/index.ts';
import { PayoutStatement } from '../../../src/modules/payouts/index.ts';
import { as } from '../faces.ts';

describe("reconciliation reads the modules' books", () => {
  it("finds a subject's gateway reference among the top-ups, then the sales", async () => {
    const topups = { references: async () => new Map([['top_1', 'ref-top']]) };
    const sales = { references: async () => new Map([['sal_1', 'ref-sale']]) };
    expect(
      await gatewayReferences(as({ topups, catalog: { operatorSales: sales } }))([
        'top_1',
        'sal_1',
      ]),
    ).toEqual(
      new Map([
        ['top_1', 'ref-top'],
        ['sal_1', 'ref-sale'],
      ]),
    );
    expect(await gatewayReferences(as({ topups, catalog: undefined }))(['top_1', 'sal_1'])).toEqual(
      new Map([['top_1', 'ref-top']]),
    );
  });

  it('matches money out with the payouts, and with the buyer refunds where the catalog is served', () => {
    const books = (services: string[]) =>
      transferBooks(as({ db: {}, config: { services: new Set(services) } })).map(
        (b) => b.constructor,
      );
    expect(books(['delivery', 'safe-catalog'])).toEqual([PayoutStatement, RefundStatement]);
    expect(books(['delivery'])).toEqual([PayoutStatement]);
  });
});
