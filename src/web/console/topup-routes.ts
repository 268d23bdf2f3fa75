import type { FastifyInstance } from 'fastify';
import { TOPUP_STATES } from '../../modules/wallet/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { FINANCE_ROLES, optional, utc, type ConsoleKit } from './kit.ts';
import { definePage } from '../../platform/web/page.ts';

const PAGE = 50;

/** Every partner's wallet top-ups for finance and admin, newest first, by state and partner. Read-only. */
export function registerConsoleTopupRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const reads = kit.deps.topups;
  if (!reads) return;

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/topups', need: FINANCE_ROLES },
    async ({ request, reply }) => {
      const q = request.query;
      const state = optional(
        q.state,
        (v: string) => (TOPUP_STATES as readonly string[]).includes(v),
        'state',
      );
      const partner = optional(q.partner, 'ptn', 'partner');
      const before = optional(q.before, 'top', 'page');
      const rows = await reads.list({
        limit: PAGE + 1,
        ...(state ? { status: state } : {}),
        ...(partner ? { partnerId: partner } : {}),
        ...(before ? { beforeId: before } : {}),
      });
      const names = await kit.deps.accounts.partnerNames(rows.map((t) => t.partner_id));
      const topups = rows.slice(0, PAGE).map((t) => ({
        ...t,
        partner_name: names.get(t.partner_id) ?? t.partner_id,
        when: utc(t.created_at),
        amount: formatGhs(Number(t.amount_pesewas)),
        credited: t.credited_pesewas === null ? '—' : formatGhs(Number(t.credited_pesewas)),
      }));
      const filters = new URLSearchParams({
        ...(state ? { state } : {}),
        ...(partner ? { partner } : {}),
      });
      const next =
        rows.length > PAGE
          ? `/console/topups?${new URLSearchParams([...filters, ['before', topups.at(-1)!.id]]).toString()}`
          : undefined;
      return kit.page(reply, 'topups', {
        title: 'Top-ups',
        topups,
        next,
        firstPage: !before,
        firstUrl: `/console/topups?${filters.toString()}`,
        states: TOPUP_STATES,
        filter: { state: state ?? '', partner: partner ?? '' },
      });
    },
  );
}
