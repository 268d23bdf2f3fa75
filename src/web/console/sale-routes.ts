import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  RECEIPT_TITLES,
  SALE_JOURNAL_TITLES,
  SALE_PAYMENT_STATUSES,
  SALE_STATES,
  type OperatorSale,
  type RefundRow,
  type SaleJournalBreakdown,
} from '../../modules/catalog/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, optional, realDay, utc, type ConsoleKit } from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PAGE = 50;

const oneOf = (values: readonly string[]) => new RegExp(`^(${values.join('|')})$`);
const STATE = oneOf(SALE_STATES);
const PAYMENT = oneOf(SALE_PAYMENT_STATUSES);

const journalView = (j: SaleJournalBreakdown) => ({
  id: j.journalId,
  title: SALE_JOURNAL_TITLES[j.kind],
  posted: utc(j.postedAt),
  buyer: formatGhs(j.buyerPaid),
  vendor: formatGhs(j.vendorShare),
  markup: formatGhs(j.markup),
  commission: formatGhs(j.commission),
  deliveryFee: formatGhs(j.deliveryFee),
});

function saleView({ sale, items, money, journals, receipts }: OperatorSale) {
  return {
    sale: {
      ...sale,
      created: utc(sale.created_at),
      updated: utc(sale.updated_at),
      settled: sale.settled_at ? utc(sale.settled_at) : undefined,
      earned: sale.earned_at ? utc(sale.earned_at) : undefined,
    },
    money,
    items: items.map((i) => ({
      ...i,
      unit: formatGhs(i.unit_price_pesewas),
      lineTotal: formatGhs(i.unit_price_pesewas * i.quantity),
    })),
    amounts: {
      subtotal: formatGhs(sale.subtotal_pesewas),
      vendor: formatGhs(sale.subtotal_pesewas - sale.commission_pesewas),
      commission: formatGhs(sale.commission_pesewas),
      deliveryFee: formatGhs(sale.delivery_fee_pesewas),
      markup: formatGhs(sale.markup_pesewas),
      total: formatGhs(sale.total_pesewas),
      gateway:
        sale.gateway_amount_pesewas === null ? undefined : formatGhs(sale.gateway_amount_pesewas),
      refundDue: sale.refund_due_pesewas === null ? undefined : formatGhs(sale.refund_due_pesewas),
    },
    journals: journals.map(journalView),
    receipts: receipts.map((r) => ({
      id: r.journalId,
      title: RECEIPT_TITLES[r.kind],
      posted: utc(r.postedAt),
      amount: formatGhs(r.amount),
    })),
  };
}

/** The sale's refund as its page shows it, with the actions its state allows. */
function refundView(r: RefundRow | undefined, buyer: { name: string; phone: string }) {
  if (!r) return undefined;
  const d = r.destination;
  return {
    ...r,
    amount: formatGhs(r.amount_pesewas),
    fee: r.fee_pesewas === null ? undefined : formatGhs(r.fee_pesewas),
    wallet: d?.kind === 'mobile_money' ? `${d.network} ${d.number} (${d.name})` : undefined,
    refunded: r.refunded_at ? utc(r.refunded_at) : undefined,
    reversed: r.reversed_at ? utc(r.reversed_at) : undefined,
    // Failed, or reversed by the provider after it succeeded: an operator decides to send it again.
    canRetry: r.status === 'failed' || r.status === 'reversed',
    // A mobile money refund waits for its wallet; a failed one may go to another.
    needsWallet:
      r.method === 'mobile_money' &&
      ((r.status === 'pending' && !d) || r.status === 'failed' || r.status === 'reversed'),
    form: {
      network: d?.kind === 'mobile_money' ? d.network : 'mtn',
      number: d?.kind === 'mobile_money' ? d.number : buyer.phone,
      name: d?.name ?? buyer.name,
    },
  };
}

/** A sale's page for finance and admin; the refund actions answer with it too (their notice or 4xx refusal). */
export async function salePage(
  kit: ConsoleKit,
  reply: FastifyReply,
  id: string,
  extra: Record<string, unknown> = {},
  status = 200,
): Promise<FastifyReply> {
  const found = await kit.deps.sales!.get(id);
  if (!found) throw new WebRefusal(404, 'There is no such sale.');
  const refund = refundView(await kit.deps.refunds?.forSale(id), {
    name: found.sale.buyer_name,
    phone: found.sale.buyer_phone,
  });
  return kit.page(
    reply,
    'sale',
    {
      title: `Sale ${found.sale.reference}`,
      ...saleView(found),
      partner:
        (await kit.deps.accounts.partnerNames([found.sale.partner_id])).get(
          found.sale.partner_id,
        ) ?? found.sale.partner_id,
      refund,
      journalPages: kit.deps.journals !== undefined,
      orderPages: kit.deps.orders !== undefined,
      ...extra,
    },
    status,
  );
}

/**
 * Every partner's safe-catalog sales for finance and admin: newest first in keyset pages, filtered
 * by state, payment status, partner and day; a sale with its items, payment, delivery and the
 * settlement and refund journals the ledger posted for it, and its buyer refund. Read-only: the
 * refund's actions are refund-routes.ts'.
 */
export function registerConsoleSaleRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const reads = kit.deps.sales;
  if (!reads) return;

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/sales', need: FINANCE_ROLES },
    async ({ request, reply }) => {
      const q = request.query;
      const state = optional(q.state, STATE, 'state') as (typeof SALE_STATES)[number] | undefined;
      const payment = optional(q.payment, PAYMENT, 'payment status') as
        | (typeof SALE_PAYMENT_STATUSES)[number]
        | undefined;
      const partner = optional(q.partner, 'ptn', 'partner');
      const from = realDay(optional(q.from, DAY, 'date'));
      const until = realDay(optional(q.until, DAY, 'date'));
      const before = optional(q.before, 'sale', 'page');
      const rows = await reads.list(
        { state, paymentStatus: payment, partnerId: partner, from, until, beforeId: before },
        PAGE + 1,
      );
      const partners = await kit.deps.accounts.partnerNames([
        ...new Set(rows.map((s) => s.partner_id)),
      ]);
      const sales = rows.slice(0, PAGE).map((s) => ({
        ...s,
        partner: partners.get(s.partner_id) ?? s.partner_id,
        when: utc(s.created_at),
        total: formatGhs(s.total_pesewas),
      }));
      const filter = {
        state: state ?? '',
        payment: payment ?? '',
        partner: partner ?? '',
        from: from ?? '',
        until: until ?? '',
      };
      const filters = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== ''));
      const next =
        rows.length > PAGE
          ? `/console/sales?${new URLSearchParams([...filters, ['before', sales.at(-1)!.id]]).toString()}`
          : undefined;
      return kit.page(reply, 'sales', {
        title: 'Sales',
        sales,
        next,
        firstPage: !before,
        firstUrl: `/console/sales?${filters.toString()}`,
        states: SALE_STATES,
        payments: SALE_PAYMENT_STATUSES,
        filter,
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/sales/:id',
      params: { id: idParam('sale', 'There is no such sale.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      return salePage(kit, reply, request.params.id);
    },
  );
}
