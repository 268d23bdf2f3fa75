import type { FastifyInstance } from 'fastify';
import { SALE_JOURNAL_TITLES, type SaleJournalBreakdown } from '../../modules/catalog/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal, type WebKit } from './kit.ts';
import { accraTime } from './format.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

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

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/sales', need: 'view_sales' },
    async ({ request, reply, actor: m }) => {
      const raw: unknown = request.query.after;
      const after = raw === undefined || raw === '' ? undefined : raw;
      if (after !== undefined && (typeof after !== 'string' || !isId('sale', after)))
        throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
      const { sales, nextAfter } = await partnerSales.list(m.membership.partner_id, after);
      const rows = sales.map((s) => ({
        ...s,
        when: accraTime(s.created_at),
        total: formatGhs(s.total_pesewas),
      }));
      return web.page(reply, 'sales', {
        title: 'Sales',
        sales: rows,
        next: nextAfter ? `/dashboard/sales?after=${nextAfter}` : undefined,
        firstPage: !after,
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/sales/:saleId',
      params: { saleId: idParam('sale', 'There is no such sale in your account.') },
      need: 'view_sales',
    },
    async ({ request, reply, actor: m }) => {
      const found = await partnerSales.get(m.membership.partner_id, request.params.saleId);
      if (!found) throw new WebRefusal(404, 'There is no such sale in your account.');
      const { sale, items, journals } = found;
      return web.page(reply, 'sale', {
        title: `Sale ${sale.reference}`,
        sale,
        created: accraTime(sale.created_at),
        items: items.map((i) => ({
          ...i,
          unit: formatGhs(i.unit_price_pesewas),
          lineTotal: formatGhs(i.unit_price_pesewas * i.quantity),
        })),
        amounts: {
          subtotal: formatGhs(sale.subtotal_pesewas),
          deliveryFee: formatGhs(sale.delivery_fee_pesewas),
          markup: formatGhs(sale.markup_pesewas),
          total: formatGhs(sale.total_pesewas),
          refundDue:
            sale.refund_due_pesewas === null ? undefined : formatGhs(sale.refund_due_pesewas),
        },
        journals: journals.map(journalView),
      });
    },
  );
}
