import type { FastifyInstance } from 'fastify';
import { TOPUP_STATES } from '../../modules/wallet/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, type ConsoleKit } from './kit.ts';

const PARTNER_ID = /^ptn_[0-9A-Z]{26}$/;
const TOPUP_ID = /^top_[0-9A-Z]{26}$/;
const PAGE = 50;

const utc = (d: Date | string) => `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function optional(value: unknown, ok: (v: string) => boolean, what: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 100 || !ok(value)) throw new WebRefusal(400, `The ${what} filter is not valid.`);
  return value;
}

/** Every partner's wallet top-ups for finance and admin, newest first, by state and partner. Read-only. */
export function registerConsoleTopupRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const reads = kit.deps.topups;
  if (!reads) return;

  app.get<{ Querystring: Record<string, unknown> }>('/console/topups', async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const q = request.query;
    const state = optional(q.state, (v) => (TOPUP_STATES as readonly string[]).includes(v), 'state');
    const partner = optional(q.partner, (v) => PARTNER_ID.test(v), 'partner');
    const before = optional(q.before, (v) => TOPUP_ID.test(v), 'page');
    const rows = await reads.list({ limit: PAGE + 1, ...(state ? { status: state } : {}), ...(partner ? { partnerId: partner } : {}), ...(before ? { beforeId: before } : {}) });
    const names = await kit.deps.accounts.partnerNames(rows.map((t) => t.partner_id));
    const topups = rows.slice(0, PAGE).map((t) => ({
      ...t,
      partner_name: names.get(t.partner_id) ?? t.partner_id,
      when: utc(t.created_at),
      amount: formatGhs(Number(t.amount_pesewas)),
      credited: t.credited_pesewas === null ? '—' : formatGhs(Number(t.credited_pesewas)),
    }));
    const filters = new URLSearchParams({ ...(state ? { state } : {}), ...(partner ? { partner } : {}) });
    const next = rows.length > PAGE ? `/console/topups?${new URLSearchParams([...filters, ['before', topups.at(-1)!.id]]).toString()}` : undefined;
    return kit.page(reply, 'topups', { title: 'Top-ups', topups, next, firstPage: !before, firstUrl: `/console/topups?${filters.toString()}`, states: TOPUP_STATES, filter: { state: state ?? '', partner: partner ?? '' } });
  });
}
