import type { FastifyInstance } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import type { ConsoleKit } from './kit.ts';
import { definePage } from '../../platform/web/page.ts';

const PAGE_SIZE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A query value as typed: a string without control characters, bounded; anything else is empty. */
const clean = (value: unknown, max: number): string =>
  typeof value === 'string'
    ? value
        .replace(/\p{Cc}/gu, '')
        .trim()
        .slice(0, max)
    : '';

/** A day (YYYY-MM-DD, UTC) as the start of that day, or of the next one for an inclusive end; null when not a day. */
function day(value: string, endOfDay: boolean): Date | null | undefined {
  if (value === '') return undefined;
  const at = DAY.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) return null;
  return endOfDay ? new Date(at.getTime() + 86_400_000) : at;
}

/** The audit log, for admins (as on the operator API): by actor, action, target and days, newest first, keyset pages. */
export function registerConsoleAuditRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { audit } = kit.deps;

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/audit', need: ['admin'] },
    async ({ request, reply }) => {
      const q = {
        actor: clean(request.query.actor, 100),
        action: clean(request.query.action, 100),
        target: clean(request.query.target, 100),
        from: clean(request.query.from, 10),
        to: clean(request.query.to, 10),
      };
      const cursor = clean(request.query.cursor, 200);
      const [from, to] = [day(q.from, false), day(q.to, true)];
      const show = (extra: Record<string, unknown>, status = 200) =>
        kit.page(reply, 'audit', { title: 'Audit log', q, entries: [], ...extra }, status);
      if (from === null || to === null)
        return show({ error: 'Dates are days written YYYY-MM-DD (UTC).' }, 400);
      try {
        const page = await audit.search({
          ...(q.actor ? { actorId: q.actor } : {}),
          ...(q.action ? { action: q.action } : {}),
          ...(q.target ? { targetId: q.target } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          ...(cursor ? { cursor } : {}),
          limit: PAGE_SIZE,
        });
        const next = page.nextCursor
          ? `/console/audit?${new URLSearchParams({ ...q, cursor: page.nextCursor }).toString()}`
          : undefined;
        const operators = await kit.operatorNames();
        const entries = page.entries.map((e) => ({
          ...e,
          actor_name: e.actor_kind === 'operator' ? operators.get(e.actor_id) : undefined,
        }));
        return show({ entries, next });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return show({ error: err.message }, err.statusCode);
      }
    },
  );
}
