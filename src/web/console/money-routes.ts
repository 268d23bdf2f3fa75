import type { FastifyInstance } from 'fastify';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { utc, FINANCE_ROLES, unlessMissing, type ConsoleKit } from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

const ENTRIES = 50;
const TOPUPS = 20;

/**
 * A partner's wallet for finance and admin (as GET /admin/v1/partners/{id}/wallet): balance, credit
 * limit, the ledger entries with the running balance in pages, and the latest top-ups with the
 * gateway's last status. Read-only: the ledger is append-only, so nothing here edits it.
 */
export function registerConsoleMoneyRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { accounts, wallet } = kit.deps;
  if (!wallet) return;

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/partners/:id/wallet',
      params: { id: idParam('ptn', 'There is no such partner.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      const id = request.params.id;
      const partner = await unlessMissing(accounts.getPartner(id));
      if (!partner) throw new WebRefusal(404, 'There is no such partner.');
      const before = request.query.before;
      if (before !== undefined && (typeof before !== 'string' || !isId('jrn', before)))
        throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
      const [balance, rows, topups] = await Promise.all([
        wallet.balancePesewas(id),
        wallet.statement(id, {
          limit: ENTRIES + 1,
          ...(before ? { beforeJournalId: before } : {}),
        }),
        wallet.recentTopups(id, TOPUPS),
      ]);
      const entries = rows.slice(0, ENTRIES).map((e) => ({
        ...e,
        when: utc(e.created_at),
        amount: formatGhs(Number(e.amount_pesewas)),
        after: formatGhs(Number(e.balance_after_pesewas)),
      }));
      const next =
        rows.length > ENTRIES
          ? `/console/partners/${id}/wallet?before=${entries.at(-1)!.journal_id}`
          : undefined;
      return kit.page(reply, 'wallet', {
        title: `${partner.name}: wallet`,
        partner: { id: partner.id, name: partner.name },
        balance: formatGhs(balance),
        creditLimit: formatGhs(Number(partner.credit_limit_pesewas)),
        entries,
        next,
        firstPage: !before,
        journalPages: kit.deps.journals !== undefined,
        topups: topups.map((t) => ({
          ...t,
          when: utc(t.created_at),
          amount: formatGhs(Number(t.amount_pesewas)),
          credited: t.credited_pesewas === null ? '—' : formatGhs(Number(t.credited_pesewas)),
        })),
      });
    },
  );
}
