import type { FastifyInstance } from 'fastify';
import { SALE_JOURNAL_TITLES, type SaleJournalBreakdown } from '../../modules/catalog/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal, type WebKit } from './kit.ts';
import { accraTime } from './order-routes.ts';

const SALE_ID = /^sale_[0-9A-Z]{26}$/;

const journalView = (j: SaleJournalBreakdown) => ({
  title: SALE_JOURNAL_TITLES[j.kind],
  posted: accraTime(j.postedAt),
  buyer: formatGhs(j.buyerPaid),
  deliveryFee: formatGhs(j.deliveryFee),
  markup: formatGhs(j.markup),
  vendor: formatGhs(j.vendorShare),
  commission: formatGhs(j.commission),
});

/** The partner's catalog sales (owners and finance): the list and each sale with its settlement as the ledger recorded it. */
export function registerSaleRoutes(app: FastifyInstance, web: WebKit): void {
  const { partnerSales } = web.deps;
  if (!partnerSales) return;

  app.get<{ Querystring: { after?: string } }>('/dashboard/sales', async (request, reply) => {
    const m = await web.member(request, reply, 'view_sales');
    if (!m) return reply;
    const raw: unknown = request.query.after;
    const after = raw === undefined || raw === '' ? undefined : raw;
    if (after !== undefined && (typeof after !== 'string' || !SALE_ID.test(after))) throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
    const { sales, nextAfter } = await partnerSales.list(m.membership.partner_id, after);
    const rows = sales.map((s) => ({ ...s, when: accraTime(s.created_at), total: formatGhs(s.total_pesewas) }));
    return web.page(reply, 'sales', { title: 'Sales', sales: rows, next: nextAfter ? `/dashboard/sales?after=${nextAfter}` : undefined, firstPage: !after });
  });

  app.get<{ Params: { saleId: string } }>('/dashboard/sales/:saleId', async (request, reply) => {
    const m = await web.member(request, reply, 'view_sales');
    if (!m) return reply;
    const found = SALE_ID.test(request.params.saleId) ? await partnerSales.get(m.membership.partner_id, request.params.saleId) : undefined;
    if (!found) throw new WebRefusal(404, 'There is no such sale in your account.');
    const { sale, items, journals } = found;
    return web.page(reply, 'sale', {
      title: `Sale ${sale.reference}`,
      sale,
      created: accraTime(sale.created_at),
      items: items.map((i) => ({ ...i, unit: formatGhs(i.unit_price_pesewas), lineTotal: formatGhs(i.unit_price_pesewas * i.quantity) })),
      amounts: {
        subtotal: formatGhs(sale.subtotal_pesewas),
        deliveryFee: formatGhs(sale.delivery_fee_pesewas),
        markup: formatGhs(sale.markup_pesewas),
        total: formatGhs(sale.total_pesewas),
        refundDue: sale.refund_due_pesewas === null ? undefined : formatGhs(sale.refund_due_pesewas),
      },
      journals: journals.map(journalView),
    });
  });
}
