import type { FastifyInstance } from 'fastify';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, optional, realDay, utc, type ConsoleKit } from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

const KIND = /^[a-z_]{1,60}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PAGE = 50;

/**
 * Ledger journals for finance and admin: every journal newest first in keyset pages, filtered by
 * kind, partner (journals touching its wallet) and day; a journal's legs with the debit/credit check.
 * Read-only: the ledger is append-only, so no page here posts anything.
 */
export function registerConsoleJournalRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const reads = kit.deps.journals;
  if (!reads) return;

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/journals', need: FINANCE_ROLES },
    async ({ request, reply }) => {
      const q = request.query;
      const kind = optional(q.kind, KIND, 'kind');
      const partner = optional(q.partner, 'ptn', 'partner');
      const until = realDay(optional(q.until, DAY, 'date'));
      const before = optional(q.before, 'jrn', 'page');
      const rows = await reads.journals({
        limit: PAGE + 1,
        ...(kind ? { kind } : {}),
        ...(partner ? { partnerId: partner } : {}),
        ...(until ? { until } : {}),
        ...(before ? { beforeId: before } : {}),
      });
      const journals = rows
        .slice(0, PAGE)
        .map((j) => ({ ...j, when: utc(j.created_at), moved: formatGhs(Number(j.moved_pesewas)) }));
      const filters = new URLSearchParams({
        ...(kind ? { kind } : {}),
        ...(partner ? { partner } : {}),
        ...(until ? { until } : {}),
      });
      const next =
        rows.length > PAGE
          ? `/console/journals?${new URLSearchParams([...filters, ['before', journals.at(-1)!.id]]).toString()}`
          : undefined;
      return kit.page(reply, 'journals', {
        title: 'Journals',
        journals,
        next,
        firstPage: !before,
        filter: { kind: kind ?? '', partner: partner ?? '', until: until ?? '' },
        firstUrl: `/console/journals?${filters.toString()}`,
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/journals/:id',
      params: { id: idParam('jrn', 'There is no such journal.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      const id = request.params.id;
      const found = await reads.journal(id);
      if (!found) throw new WebRefusal(404, 'There is no such journal.');
      let debits = 0;
      let credits = 0;
      // Amounts are signed as the wallets read them: a top-up credits the wallet (positive) and
      // debits the gateway's clearing account (negative); an order fee debits the wallet.
      const legs = found.legs.map((l) => {
        const amount = Number(l.amount_pesewas);
        if (amount < 0) debits -= amount;
        else credits += amount;
        return {
          account: l.account,
          debit: amount < 0 ? formatGhs(-amount) : '',
          credit: amount > 0 ? formatGhs(amount) : '',
        };
      });
      return kit.page(reply, 'journal', {
        title: `Journal ${id}`,
        journal: { ...found.journal, when: utc(found.journal.created_at) },
        legs,
        debits: formatGhs(debits),
        credits: formatGhs(credits),
        balanced: debits === credits,
      });
    },
  );
}
