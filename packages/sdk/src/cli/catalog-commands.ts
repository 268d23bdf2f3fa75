import type { PayoutListQuery, SafeOrder, SafeOrderRequest } from '../types.ts';
import {
  CLI,
  idOrReference,
  parseNumber,
  referenceHint,
  requestBodyFile,
  str,
  type Command,
} from './command.ts';
import { block, ghs, json, table } from './output.ts';

/** Payouts are in integer pesewas; shown in GHS like every other amount. */
const pesewas = (n: number) => ghs(n / 100);

type Amounts = Pick<SafeOrder, 'subtotal_ghs' | 'delivery_fee_ghs' | 'markup_ghs' | 'total_ghs'>;

const amounts = (s: Amounts): Array<[string, unknown]> => [
  ['subtotal', ghs(s.subtotal_ghs)],
  ['delivery fee', ghs(s.delivery_fee_ghs)],
  ['markup', ghs(s.markup_ghs)],
  ['total', ghs(s.total_ghs)],
];

function saleText(s: SafeOrder): string {
  const head = block([
    ['sale id', s.sale_id],
    ['reference', s.reference],
    ['your reference', s.external_reference],
    ['payment', `${s.payment_method}, ${s.payment_status}`],
    ['state', s.state],
    ['checkout url', s.checkout_url ?? undefined],
    [
      'delivery',
      s.delivery
        ? `${s.delivery.order_id} ${s.delivery.status} ${s.delivery.tracking_url}`
        : undefined,
    ],
    ...amounts(s),
    ['refund due', s.refund_due_ghs === null ? undefined : ghs(s.refund_due_ghs)],
  ]);
  return `${head}\n\n${table(
    ['product id', 'variant', 'qty', 'unit price', 'line total'],
    s.items.map((i) => [
      i.product_id,
      `${i.title} (${i.label})`,
      i.quantity,
      ghs(i.unit_price_ghs),
      ghs(i.line_total_ghs),
    ]),
  )}`;
}

const saleHint = referenceHint('sale_', 'SALE_NOT_FOUND', 'catalog orders get');

/** Safe-catalog reads, and orders (create and verify need production keys). */
export const catalogCommands: Command[] = [
  {
    name: 'catalog list',
    usage: '[--vendor VENDOR_ID] [--limit N] [--cursor CURSOR]',
    summary: 'Products of syndicated vendors, a page at a time',
    options: { vendor: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    async run(ctx) {
      const limit = str(ctx, 'limit');
      const res = await ctx.client().catalog.list({
        vendor_id: str(ctx, 'vendor'),
        limit:
          limit === undefined
            ? undefined
            : parseNumber(limit, '--limit', { integer: true, min: 1 }),
        cursor: str(ctx, 'cursor'),
      });
      if (ctx.json) return ctx.io.out(json(res));
      const rows = res.data.products.map((p) => {
        const prices = p.variants.map((v) => v.price_ghs);
        const price =
          prices.length === 0
            ? '-'
            : Math.min(...prices) === Math.max(...prices)
              ? ghs(prices[0])
              : `${ghs(Math.min(...prices))}–${Math.max(...prices).toFixed(2)}`;
        return [
          p.product_id,
          p.title,
          p.vendor_name,
          price,
          p.variants.some((v) => v.in_stock) ? 'yes' : 'no',
        ];
      });
      ctx.io.out(
        `${table(['product id', 'title', 'vendor', 'price', 'in stock'], rows)}\n\n${res.data.count} product${res.data.count === 1 ? '' : 's'}`,
      );
      if (res.data.next_cursor)
        ctx.io.out(`next page: ${CLI} catalog list --cursor ${res.data.next_cursor}`);
    },
  },
  {
    name: 'catalog get',
    usage: 'PRODUCT_ID',
    summary: 'One product and its variants',
    args: [1, 1],
    async run(ctx) {
      const res = await ctx.client().catalog.get(ctx.positionals[0]!);
      if (ctx.json) return ctx.io.out(json(res));
      const p = res.data;
      const head = block([
        ['product id', p.product_id],
        ['title', p.title],
        ['vendor', `${p.vendor_name} (${p.vendor_id})`],
        ['category', p.category],
        ['description', p.description],
      ]);
      ctx.io.out(
        `${head}\n\n${table(
          ['variant id', 'label', 'price', 'in stock'],
          p.variants.map((v) => [
            v.variant_id,
            v.label,
            ghs(v.price_ghs),
            v.in_stock ? 'yes' : 'no',
          ]),
        )}`,
      );
    },
  },
  {
    name: 'catalog orders create',
    usage: '-f FILE',
    summary:
      'Place a safe-catalog order from a JSON file (an orders.create body; - reads stdin; production keys)',
    help: [
      'Retried with the same external_reference: an order an earlier attempt placed is returned, not placed twice.',
      'online: pay at the checkout URL, then verify. cod: the buyer pays the courier; verify settles it once delivered.',
    ],
    options: { file: { type: 'string', short: 'f' } },
    async run(ctx) {
      const order = requestBodyFile(ctx, 'one safe-catalog order object') as SafeOrderRequest;
      const res = await ctx.client().catalog.orders.create(order);
      if (ctx.json) return ctx.io.out(json(res));
      const s = res.data;
      ctx.io.out(
        block([
          ['sale id', s.sale_id],
          ['reference', s.reference],
          ['state', s.state],
          ['checkout url', s.checkout_url ?? undefined],
          ...amounts(s),
          [
            'note',
            res.recovered ? 'an earlier attempt had placed it; this is that order' : undefined,
          ],
        ]),
      );
      ctx.io.out(
        `\n${s.checkout_url ? 'Pay at the checkout URL, then' : 'Once it is delivered'}: ${CLI} catalog orders verify ${s.sale_id}`,
      );
    },
  },
  {
    name: 'catalog orders get',
    usage: 'SALE_ID | --reference EXTERNAL_REFERENCE',
    summary: 'A safe-catalog order, by sale id or by your external_reference',
    options: { reference: { type: 'string' } },
    args: [0, 1],
    hint: saleHint,
    async run(ctx) {
      const { id, reference } = idOrReference(ctx, 'SALE_ID or --reference EXTERNAL_REFERENCE');
      const res = await ctx
        .client()
        .catalog.orders.get(id !== undefined ? { sale_id: id } : { external_reference: reference });
      ctx.io.out(ctx.json ? json(res) : saleText(res.data));
    },
  },
  {
    name: 'catalog orders verify',
    usage: 'SALE_ID',
    summary:
      'Settle a paid (online) or delivered (cod) order; idempotent, safe to repeat (production keys)',
    args: [1, 1],
    hint: saleHint,
    async run(ctx) {
      const res = await ctx.client().catalog.orders.verify(ctx.positionals[0]!);
      if (ctx.json) return ctx.io.out(json(res));
      const v = res.data;
      ctx.io.out(
        block([
          ['sale id', v.sale_id],
          ['state', v.state],
          ['settled', v.settled ? 'yes' : 'no'],
          ['payment', v.payment_status],
          ['delivery', v.delivery_status],
        ]),
      );
    },
  },
  {
    name: 'catalog payouts list',
    usage: '[--status STATUS] [--limit N] [--cursor CURSOR]',
    summary:
      'Payouts of your markup, newest first, and your balance (production keys with payouts:read)',
    options: { status: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    async run(ctx) {
      const limit = str(ctx, 'limit');
      const res = await ctx.client().catalog.payouts.list({
        status: str(ctx, 'status') as PayoutListQuery['status'],
        limit:
          limit === undefined
            ? undefined
            : parseNumber(limit, '--limit', { integer: true, min: 1 }),
        cursor: str(ctx, 'cursor'),
      });
      if (ctx.json) return ctx.io.out(json(res));
      const { payouts, balance, next_cursor } = res.data;
      ctx.io.out(
        table(
          ['payout id', 'status', 'amount', 'created'],
          payouts.map((x) => [x.payout_id, x.status, pesewas(x.amount_pesewas), x.created_at]),
        ),
      );
      ctx.io.out(
        `\n${block([
          ['pending', pesewas(balance.pending_pesewas)],
          ['available', pesewas(balance.available_pesewas)],
          ['paid out', pesewas(balance.paid_out_pesewas)],
        ])}`,
      );
      if (next_cursor) ctx.io.out(`next page: ${CLI} catalog payouts list --cursor ${next_cursor}`);
    },
  },
  {
    name: 'catalog payouts get',
    usage: 'PAYOUT_ID',
    summary: 'One payout with its remittance lines (production keys with payouts:read)',
    args: [1, 1],
    async run(ctx) {
      const res = await ctx.client().catalog.payouts.get(ctx.positionals[0]!);
      if (ctx.json) return ctx.io.out(json(res));
      const x = res.data;
      const head = block([
        ['payout id', x.payout_id],
        ['status', x.status],
        ['amount', pesewas(x.amount_pesewas)],
        ['sales', pesewas(x.sales_pesewas)],
        ['deductions', pesewas(x.deductions_pesewas)],
        ['failure', x.failure_reason ?? undefined],
      ]);
      ctx.io.out(
        `${head}\n\n${table(
          ['type', 'subject', 'amount'],
          x.lines.map((l) => [l.type, l.subject_id, pesewas(l.amount_pesewas)]),
        )}`,
      );
    },
  },
];
