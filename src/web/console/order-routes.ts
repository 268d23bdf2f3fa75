import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildTimeline, DELIVERY_STATUSES, FAILURE_REASONS, FAILURE_TITLES, isStop, type DeliveryStatus, type FailureReason } from '../../modules/delivery/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { hasControlCharacters } from '../../platform/web/form.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const ORDER_ID = /^dlv_[0-9A-Z]{26}$/;
const PARTNER_ID = /^ptn_[0-9A-Z]{26}$/;
const ENVIRONMENTS = ['staging', 'production'] as const;
type ListQuery = { Querystring: { status?: string; partner?: string; environment?: string; q?: string; after?: string } };
type Params = { Params: { id: string } };

const utc = (d: Date | string) => `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const has = (current: OperatorCurrent, roles: readonly string[]) => current.operator.roles.some((r) => roles.includes(r));

/** Reads the board's filters; a value no form offers is refused with a sentence (400), never a 500. */
function filters(query: ListQuery['Querystring']) {
  if (Object.values(query).some((v) => typeof v !== 'string')) throw new WebRefusal(400, 'Each filter may be given once.');
  const pick = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const status = pick(query.status);
  const environment = pick(query.environment);
  const partnerId = pick(query.partner);
  const reference = pick(query.q);
  const after = pick(query.after);
  if (status && !(DELIVERY_STATUSES as readonly string[]).includes(status)) throw new WebRefusal(400, 'Unknown status: pick one from the list.');
  if (environment && !(ENVIRONMENTS as readonly string[]).includes(environment)) throw new WebRefusal(400, 'The environment must be staging or production.');
  if (partnerId && !PARTNER_ID.test(partnerId)) throw new WebRefusal(400, 'The partner must be a partner id (ptn_…).');
  if (reference && (reference.length > 100 || hasControlCharacters(reference))) throw new WebRefusal(400, 'The reference search must be at most 100 printable characters.');
  if (after && !ORDER_ID.test(after)) throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
  return { status: status as DeliveryStatus | undefined, environment: environment as 'staging' | 'production' | undefined, partnerId, reference, afterId: after };
}

/**
 * The orders board: every partner's delivery orders, an order's page with its timeline, and the
 * operator's moves through OrdersService.operatorMove (the operator API's service), offering only
 * the moves the status machine allows. Support and admin move; finance reads.
 */
export function registerConsoleOrderRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { orders, audit } = kit.deps;
  if (!orders) return;

  async function orderPage(reply: FastifyReply, current: OperatorCurrent, id: string, extra: Record<string, unknown> = {}, status = 200) {
    const found = ORDER_ID.test(id) ? await orders!.read.get(id) : undefined;
    if (!found) throw new WebRefusal(404, 'There is no such order.');
    const { order, events } = found;
    const timeline = buildTimeline(events.map((e) => ({ status: e.status, at: e.at }))).map((t) => ({ ...t, when: t.timestamp ? utc(t.timestamp) : undefined, stop: isStop(t.status) }));
    const moves = has(current, CHANGE_ROLES) ? orders!.service.allowedMoves(order) : [];
    return kit.page(
      reply,
      'order',
      {
        title: `Order ${order.order_reference}`,
        order,
        fee: order.fee_pesewas === null ? '—' : formatGhs(Number(order.fee_pesewas)),
        created: utc(order.created_at),
        events: events.map((e) => ({ ...e, when: utc(e.at) })),
        timeline,
        // In transit again is another delivery attempt after a failed one.
        moves: moves.filter((m) => m !== 'cancelled').map((m) => ({ value: m, label: m === order.status ? `${m} (another delivery attempt)` : m })),
        canCancel: moves.includes('cancelled'),
        failure: order.failure_reason ? FAILURE_TITLES[order.failure_reason] : undefined,
        returnFee: order.return_fee_pesewas === null ? undefined : formatGhs(Number(order.return_fee_pesewas)),
        reasons: moves.some((m) => m === order.status || m === 'returning' || m === 'failed') ? FAILURE_REASONS.map((r) => ({ value: r, label: FAILURE_TITLES[r] })) : [],
        sandbox: order.environment === 'staging',
        ...extra,
      },
      status,
    );
  }

  /** One move through the operator service, audited as the operator; a refused move shows its sentence on the order's page. */
  async function move(request: FastifyRequest<Params>, reply: FastifyReply, current: OperatorCurrent, to: DeliveryStatus, note: string | undefined, failureReason?: FailureReason) {
    const id = request.params.id;
    const found = ORDER_ID.test(id) ? await orders!.read.get(id) : undefined;
    if (!found) throw new WebRefusal(404, 'There is no such order.');
    try {
      const after = await orders!.service.operatorMove(id, to, note, failureReason);
      await audit.record({
        actor: kit.actor(current),
        action: 'delivery_order.status_change',
        target: { type: 'order', id },
        before: { status: found.order.status },
        after: { status: after.status, note: note ?? null, ...(failureReason ? { failure_reason: failureReason } : {}) },
        origin: kit.origin(request),
      });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such order.');
      return orderPage(reply, current, id, { error: `Not moved: ${err.message}` }, err.statusCode);
    }
    return orderPage(reply, current, id, { notice: to === 'cancelled' ? 'Cancelled.' : `Moved to ${to}.` });
  }

  app.get<ListQuery>('/console/orders', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    const filter = filters(request.query);
    const { orders: rows, nextAfter } = await orders.read.list(filter);
    const query = { ...(filter.status ? { status: filter.status } : {}), ...(filter.partnerId ? { partner: filter.partnerId } : {}), ...(filter.environment ? { environment: filter.environment } : {}), ...(filter.reference ? { q: filter.reference } : {}) };
    const next = nextAfter ? `/console/orders?${new URLSearchParams({ ...query, after: nextAfter })}` : undefined;
    const list = rows.map((o) => ({ ...o, when: utc(o.created_at), fee: o.fee_pesewas === null ? '—' : formatGhs(Number(o.fee_pesewas)), sandbox: o.environment === 'staging' }));
    return kit.page(reply, 'orders', { title: 'Orders', orders: list, filter, statuses: DELIVERY_STATUSES, next, firstPage: !filter.afterId });
  });

  app.get<Params>('/console/orders/:id', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return orderPage(reply, current, request.params.id);
  });

  app.post<Params>('/console/orders/:id/status', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { status: { max: 20, label: 'Status' }, note: { max: 500, label: 'Note' }, failure_reason: { max: 20, label: 'Why it could not be delivered' } }, current);
    if (!(DELIVERY_STATUSES as readonly string[]).includes(f.status) || f.status === 'placed' || f.status === 'cancelled') {
      throw new WebRefusal(400, 'Pick one of the next states offered on the order’s page.');
    }
    if (f.failure_reason !== '' && !(FAILURE_REASONS as readonly string[]).includes(f.failure_reason)) {
      throw new WebRefusal(400, 'Pick one of the reasons offered on the order’s page.');
    }
    return move(request, reply, current, f.status as DeliveryStatus, f.note.trim() || undefined, (f.failure_reason || undefined) as FailureReason | undefined);
  });

  app.post<Params>('/console/orders/:id/cancel', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { reason: { max: 500, label: 'Reason' } }, current);
    return move(request, reply, current, 'cancelled', f.reason.trim() || undefined);
  });
}
