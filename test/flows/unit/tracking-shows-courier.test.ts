import { describe, expect, it } from 'vitest';
import { courierTracker } from '../../../src/flows/tracking-shows-courier.ts';
import { as } from '../faces.ts';

describe("delivery's tracker asks dispatch's trail", () => {
  it('answers nothing before dispatch exists, then where the courier is', async () => {
    const ctx: { dispatch: unknown } = { dispatch: undefined };
    const tracker = courierTracker(as(ctx));
    expect(await tracker.forOrder('ord_1')).toBeUndefined();
    expect(await tracker.forOrders(['ord_1'])).toEqual(new Map());
    expect(await tracker.phoneFor('ord_1')).toBeUndefined();
    expect(tracker.alongside.column('o.id')).toBe('null');
    expect(await tracker.alongside.read(null)).toBeUndefined();
    const many = new Map([['ord_1', { order: 'ord_1' }]]);
    ctx.dispatch = {
      trail: {
        forOrder: async (id: string) => ({ order: id, lat: 5.6, lng: -0.19 }),
        forOrders: async () => many,
        phoneFor: async (id: string) => (id === 'ord_1' ? '+233241110000' : undefined),
        alongside: {
          column: (id: string) => `(held ${id})`,
          read: async (value: unknown) => ({ held: value }),
        },
      },
    };
    expect(await tracker.forOrder('ord_1')).toEqual({ order: 'ord_1', lat: 5.6, lng: -0.19 });
    expect(await tracker.forOrders(['ord_1'])).toBe(many);
    expect(await tracker.phoneFor('ord_1')).toBe('+233241110000');
    expect(tracker.alongside.column('o.id')).toBe('(held o.id)');
    expect(await tracker.alongside.read('x')).toEqual({ held: 'x' });
  });
});
