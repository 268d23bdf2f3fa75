import { describe, expect, it } from 'vitest';
import { levelling, type TableSample } from './soak-tables.ts';

/** Samples a minute apart: `orders(m)` placed by minute m, each table's bytes from `bytes[table](m)`. */
function run(
  minutes: number,
  orders: (m: number) => number,
  bytes: Record<string, (m: number) => number>,
): TableSample[] {
  return Array.from({ length: minutes + 1 }, (_, m) => ({
    atS: m * 60,
    orders: orders(m),
    tables: Object.entries(bytes).map(([table, f]) => ({
      table,
      rows: 0,
      deadRows: 0,
      bytes: f(m),
    })),
  }));
}

const verdicts = (samples: TableSample[]) =>
  Object.fromEntries(levelling(samples).map((l) => [l.table, [l.rule, l.pass]]));

describe('the soak tables verdict', () => {
  const steady = (m: number) => 100 * m;

  it('passes a table that must level off only when its last quarter grew at most 5%', () => {
    const samples = run(20, steady, {
      // +4% in the last quarter.
      couriers: (m) => 1_000_000 + (m > 15 ? 40_000 : 0),
      // +7.7% in the last quarter.
      dispatch_trail: (m) => 1_000_000 + 20_000 * m,
    });
    expect(verdicts(samples)).toEqual({
      couriers: ['levels', true],
      dispatch_trail: ['levels', false],
    });
  });

  it('judges a table that follows the work by its bytes per order, not its growth', () => {
    const samples = run(20, steady, {
      // 500 bytes an order throughout: grows with the work, passes.
      outbox_events: (m) => 500 * steady(m),
      // 500 bytes an order, then 700 in the last quarter: each order costs more, misses.
      dispatch_offers: (m) => 500 * steady(m) + (m > 15 ? 200 * (steady(m) - steady(15)) : 0),
    });
    const levels = levelling(samples);
    expect(verdicts(samples)).toEqual({
      outbox_events: ['per order', true],
      dispatch_offers: ['per order', false],
    });
    expect(levels[0]!.bytesPerOrder).toEqual({ before: 500, last: 500 });
    expect(levels[1]!.perOrderPct).toBe(40);
  });

  it('misses a table that follows the work when no order was placed to judge it by', () => {
    const samples = run(20, () => 0, { courier_actions: () => 1_000 });
    expect(levelling(samples)[0]).toMatchObject({ bytesPerOrder: null, pass: false });
  });
});
