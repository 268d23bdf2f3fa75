import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REFUND_STATUSES, type RefundRow, type RefundStatus } from '../../modules/catalog/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, optional, utc, type ConsoleKit, type OperatorCurrent } from './kit.ts';
import { salePage } from './sale-routes.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

const PAGE = 50;
const STATUS = new RegExp(`^(${REFUND_STATUSES.join('|')})$`);
const WALLET_FIELDS = {
  network: { max: 20, label: 'Network' },
  number: { max: 30, label: 'Wallet number' },
  name: { max: 120, label: 'Registered name' },
};
type SaleParams = { Params: { id: string } };

/**
 * Buyer refunds for finance and admin: the list (by state), and on a sale's page the retry of a
 * failed refund and the wallet a mobile money refund goes to. Each action is audited; a refusal
 * (not failed, a bad wallet) is shown on the sale's page with its 4xx status and changes nothing.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleRefundRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { refunds } = kit.deps;
  if (!refunds || !kit.deps.sales) return;

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/refunds', need: FINANCE_ROLES },
    async ({ request, reply }) => {
      const status = optional(request.query.status, STATUS, 'state') as RefundStatus | undefined;
      const before = optional(request.query.before, 'sale', 'page');
      const rows = await refunds.list({ status, beforeId: before }, PAGE + 1);
      const partners = await kit.deps.accounts.partnerNames([
        ...new Set(rows.map((r) => r.partner_id)),
      ]);
      const shown = rows.slice(0, PAGE).map((r) => ({
        ...r,
        partner: partners.get(r.partner_id) ?? r.partner_id,
        when: utc(r.created_at),
        amount: formatGhs(r.amount_pesewas),
        waiting: r.status === 'pending' && r.method === 'mobile_money' && !r.destination,
      }));
      const filters = new URLSearchParams(status ? [['status', status]] : []);
      const next =
        rows.length > PAGE
          ? `/console/refunds?${new URLSearchParams([...filters, ['before', shown.at(-1)!.sale_id]]).toString()}`
          : undefined;
      return kit.page(reply, 'refunds', {
        title: 'Refunds',
        refunds: shown,
        statuses: REFUND_STATUSES,
        filter: { status: status ?? '' },
        next,
        firstPage: !before,
        firstUrl: `/console/refunds?${filters.toString()}`,
      });
    },
  );

  /** Runs an operator's refund action, audited; a 4xx refusal is shown on the sale's page. */
  async function act(
    request: FastifyRequest<SaleParams>,
    reply: FastifyReply,
    current: OperatorCurrent,
    action: string,
    run: () => Promise<RefundRow>,
  ): Promise<FastifyReply> {
    const id = request.params.id;
    let done: RefundRow;
    try {
      done = await run();
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'This sale has no refund.');
      return salePage(
        kit,
        reply,
        id,
        { error: `Nothing was sent: ${err.message}` },
        err.statusCode,
      );
    }
    await kit.audit(request, current, {
      action,
      target: { type: 'sale', id },
      after: { status: done.status, method: done.method, reference: done.reference },
    });
    return salePage(kit, reply, id, {
      notice: `Refund ${done.status}${done.failure_reason ? `: ${done.failure_reason}` : '.'}`,
    });
  }

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/sales/:id/refund/retry',
      params: { id: idParam('sale', 'There is no such sale.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return act(request, reply, current, 'sale_refund.retry', () =>
        refunds.retry(request.params.id),
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/sales/:id/refund/wallet',
      params: { id: idParam('sale', 'There is no such sale.') },
      need: FINANCE_ROLES,
      form: WALLET_FIELDS,
    },
    async ({ request, reply, actor: current, form: f }) => {
      return act(request, reply, current, 'sale_refund.wallet', () =>
        refunds.sendTo(request.params.id, f),
      );
    },
  );
}
