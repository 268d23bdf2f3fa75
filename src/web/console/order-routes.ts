import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  buildTimeline,
  DELIVERY_STATUSES,
  FAILURE_REASONS,
  FAILURE_TITLES,
  isStop,
  type DeliveryStatus,
  type FailureReason,
} from '../../modules/delivery/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { hasControlCharacters } from '../../platform/web/form.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import {
  utc,
  holds,
  ALL_ROLES,
  CHANGE_ROLES,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { liveBoard } from './live-board.ts';
import { isId } from '../../platform/ids.ts';

const ENVIRONMENTS = ['staging', 'production'] as const;
type ListQuery = {
  Querystring: {
    status?: string;
    partner?: string;
    environment?: string;
    q?: string;
    after?: string;
  };
};
type Params = { Params: { id: string } };

/** Reads the board's filters; a value no form offers is refused with a sentence (400), never a 500. */
function filters(query: ListQuery['Querystring']) {
  if (Object.values(query).some((v) => typeof v !== 'string'))
    throw new WebRefusal(400, 'Each filter may be given once.');
  const pick = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const status = pick(query.status);
  const environment = pick(query.environment);
  const partnerId = pick(query.partner);
  const reference = pick(query.q);
  const after = pick(query.after);
  if (status && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    throw new WebRefusal(400, 'Unknown status: pick one from the list.');
  if (environment && !(ENVIRONMENTS as readonly string[]).includes(environment))
    throw new WebRefusal(400, 'The environment must be staging or production.');
  if (partnerId && !isId('ptn', partnerId))
    throw new WebRefusal(400, 'The partner must be a partner id (ptn_…).');
  if (reference && (reference.length > 100 || hasControlCharacters(reference)))
    throw new WebRefusal(400, 'The reference search must be at most 100 printable characters.');
  if (after && !isId('dlv', after))
    throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
  return {
    status: status as DeliveryStatus | undefined,
    environment: environment as 'staging' | 'production' | undefined,
    partnerId,
    reference,
    afterId: after,
  };
}

/** The delivery window the partner asked for, in words (Accra time is UTC), or undefined without one. */
function windowText(o: {
  pickup_ready_at: Date | null;
  dropoff_deadline: Date | null;
}): string | undefined {
  if (!o.pickup_ready_at && !o.dropoff_deadline) return undefined;
  const ready = o.pickup_ready_at ? `ready ${utc(o.pickup_ready_at)}` : 'ready at once';
  return `${ready}, ${o.dropoff_deadline ? `due by ${utc(o.dropoff_deadline)}` : 'no deadline'}`;
}

/**
 * The orders board: every partner's delivery orders, an order's page with its timeline, and the
 * operator's moves through OrdersService.operatorMove (the operator API's service), offering only
 * the moves the status machine allows. Support and admin move; finance reads.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleOrderRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { orders } = kit.deps;
  if (!orders) return;
  const live = liveBoard(kit);

  async function orderPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const found = await orders!.read.get(id);
    if (!found) throw new WebRefusal(404, 'There is no such order.');
    const { order, events } = found;
    const timeline = buildTimeline(events.map((e) => ({ status: e.status, at: e.at }))).map(
      (t) => ({ ...t, when: t.timestamp ? utc(t.timestamp) : undefined, stop: isStop(t.status) }),
    );
    const moves = holds(current, CHANGE_ROLES) ? orders!.service.allowedMoves(order) : [];
    const [partners, texts] = await Promise.all([
      kit.deps.accounts.partnerNames([order.partner_id]),
      kit.deps.messages?.ofOrder(order.id) ?? [],
    ]);
    return kit.page(
      reply,
      'order',
      {
        title: `Order ${order.order_reference}`,
        order,
        partner: partners.get(order.partner_id) ?? order.partner_id,
        fee: order.fee_pesewas === null ? '—' : formatGhs(Number(order.fee_pesewas)),
        created: utc(order.created_at),
        window: windowText(order),
        events: events.map((e) => ({ ...e, when: utc(e.at) })),
        timeline,
        // In transit again is another delivery attempt after a failed one.
        moves: moves
          .filter((m) => m !== 'cancelled')
          .map((m) => ({
            value: m,
            label: m === order.status ? `${m} (another delivery attempt)` : m,
          })),
        canCancel: moves.includes('cancelled'),
        failure: order.failure_reason ? FAILURE_TITLES[order.failure_reason] : undefined,
        returnFee:
          order.return_fee_pesewas === null
            ? undefined
            : formatGhs(Number(order.return_fee_pesewas)),
        reasons: moves.some((m) => m === order.status || m === 'returning' || m === 'failed')
          ? FAILURE_REASONS.map((r) => ({ value: r, label: FAILURE_TITLES[r] }))
          : [],
        sandbox: order.environment === 'staging',
        ...(kit.deps.messages &&
          live('texts', `/console/orders/${order.id}`, `/console/events/orders/${order.id}/texts`)),
        texts: texts.map((m) => ({
          kind: m.kind.replace('_', ' '),
          channel: m.channel,
          status: m.status,
          why: m.skip_reason ?? m.last_error ?? '',
          segments: m.segments,
          cost: formatGhs(Number(m.cost_pesewas)),
          sent: m.sent_at ? utc(m.sent_at) : '—',
          reported: m.reported_at ? utc(m.reported_at) : '—',
        })),
        ...extra,
      },
      status,
    );
  }

  /** One move through the operator service, audited as the operator; a refused move shows its sentence on the order's page. */
  async function move(
    request: FastifyRequest<Params>,
    reply: FastifyReply,
    current: OperatorCurrent,
    to: DeliveryStatus,
    note: string | undefined,
    failureReason?: FailureReason,
  ) {
    const id = request.params.id;
    const found = await orders!.read.get(id);
    if (!found) throw new WebRefusal(404, 'There is no such order.');
    try {
      const after = await orders!.service.operatorMove(id, to, note, failureReason);
      await kit.audit(request, current, {
        action: 'delivery_order.status_change',
        target: { type: 'order', id },
        before: { status: found.order.status },
        after: {
          status: after.status,
          note: note ?? null,
          ...(failureReason ? { failure_reason: failureReason } : {}),
        },
      });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such order.');
      return orderPage(reply, current, id, { error: `Not moved: ${err.message}` }, err.statusCode);
    }
    return orderPage(reply, current, id, {
      notice: to === 'cancelled' ? 'Cancelled.' : `Moved to ${to}.`,
    });
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/orders', need: ALL_ROLES },
    async ({ request, reply }) => {
      const filter = filters(request.query);
      const { orders: rows, nextAfter } = await orders.read.list(filter);
      const query = {
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.partnerId ? { partner: filter.partnerId } : {}),
        ...(filter.environment ? { environment: filter.environment } : {}),
        ...(filter.reference ? { q: filter.reference } : {}),
      };
      const next = nextAfter
        ? `/console/orders?${new URLSearchParams({ ...query, after: nextAfter })}`
        : undefined;
      const partners = await kit.deps.accounts.partnerNames([
        ...new Set(rows.map((o) => o.partner_id)),
      ]);
      const list = rows.map((o) => ({
        ...o,
        partner: partners.get(o.partner_id) ?? o.partner_id,
        when: utc(o.created_at),
        fee: o.fee_pesewas === null ? '—' : formatGhs(Number(o.fee_pesewas)),
        sandbox: o.environment === 'staging',
      }));
      return kit.page(reply, 'orders', {
        title: 'Orders',
        ...liveBoard(kit)('orders', request.url),
        orders: list,
        filter,
        statuses: DELIVERY_STATUSES,
        next,
        firstPage: !filter.afterId,
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/orders/:id',
      params: { id: idParam('dlv', 'There is no such order.') },
      need: ALL_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return orderPage(reply, current, request.params.id);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/orders/:id/status',
      params: { id: idParam('dlv', 'There is no such order.') },
      need: CHANGE_ROLES,
      form: {
        status: { max: 20, label: 'Status' },
        note: { max: 500, label: 'Note' },
        failure_reason: { max: 20, label: 'Why it could not be delivered' },
      },
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (
        !(DELIVERY_STATUSES as readonly string[]).includes(f.status) ||
        f.status === 'placed' ||
        f.status === 'cancelled'
      ) {
        throw new WebRefusal(400, 'Pick one of the next states offered on the order’s page.');
      }
      if (
        f.failure_reason !== '' &&
        !(FAILURE_REASONS as readonly string[]).includes(f.failure_reason)
      ) {
        throw new WebRefusal(400, 'Pick one of the reasons offered on the order’s page.');
      }
      return move(
        request,
        reply,
        current,
        f.status as DeliveryStatus,
        f.note.trim() || undefined,
        (f.failure_reason || undefined) as FailureReason | undefined,
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/orders/:id/cancel',
      params: { id: idParam('dlv', 'There is no such order.') },
      need: CHANGE_ROLES,
      form: { reason: { max: 500, label: 'Reason' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      return move(request, reply, current, 'cancelled', f.reason.trim() || undefined);
    },
  );
}
