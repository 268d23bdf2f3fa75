import type { FastifyInstance } from 'fastify';
import {
  buildTimeline,
  DELIVERY_STATUSES,
  describeStatus,
  FAILURE_TITLES,
  isStop,
  type DeliveryStatus,
} from '../../modules/delivery/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { isId } from '../../platform/ids.ts';
import { hasControlCharacters } from '../../platform/web/form.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { accraTime } from './format.ts';
import { WebRefusal, type WebKit } from './kit.ts';

const ENVIRONMENTS = ['staging', 'production'] as const;

const PROOF_METHODS = {
  code: 'The recipient’s delivery code',
  photo: 'A photo',
  signature: 'A signature',
} as const;

/** Whether the recipient has confirmed a delivery a photo or signature proved (the order stays delivered). */
const CONFIRMATIONS = {
  pending:
    'Waiting for the recipient to confirm (they were texted a link); the sale’s payout waits too',
  confirmed: 'Confirmed by the recipient',
  disputed: 'Disputed by the recipient: our operators are looking into it; the sale’s payout waits',
  accepted: 'Accepted by our operators',
} as const;

type ListQuery = {
  Querystring: {
    status?: string;
    environment?: string;
    q?: string;
    after?: string;
    from?: string;
    to?: string;
  };
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day as YYYY-MM-DD (not 2026-02-30), within years Postgres and people agree on. */
const isDay = (v: string) =>
  DAY.test(v) &&
  v >= '2000-01-01' &&
  v <= '2999-12-31' &&
  new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** Reads the list's filters; a value no form offers is refused with a sentence. */
function filters(query: ListQuery['Querystring']) {
  const pick = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const status = pick(query.status);
  const environment = pick(query.environment);
  const reference = pick(query.q)?.trim() || undefined;
  const after = pick(query.after);
  if (status && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    throw new WebRefusal(400, `Unknown status “${status}”.`);
  if (environment && !(ENVIRONMENTS as readonly string[]).includes(environment))
    throw new WebRefusal(400, `Unknown environment “${environment}”.`);
  if (reference && (reference.length > 100 || hasControlCharacters(reference)))
    throw new WebRefusal(400, 'The reference search must be at most 100 printable characters.');
  if (after && !isId('dlv', after))
    throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
  const from = pick(query.from);
  const to = pick(query.to);
  for (const [label, v] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (v && !isDay(v))
      throw new WebRefusal(400, `The “${label}” date must be a day like 2026-11-24.`);
  }
  if (from && to && from > to)
    throw new WebRefusal(400, 'The “from” date must not be after the “to” date.');
  return {
    status: status as DeliveryStatus | undefined,
    environment: environment as 'staging' | 'production' | undefined,
    reference,
    afterId: after,
    from,
    to,
  };
}

/** The partner's delivery orders (all apps, both environments) and each order's page. */
export function registerOrderRoutes(app: FastifyInstance, web: WebKit): void {
  const { partnerOrders, proofs, publicBaseUrl } = web.deps;
  if (!partnerOrders) return;

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/orders', need: 'view' },
    async ({ request, reply, actor: m }) => {
      const filter = filters(request.query as ListQuery['Querystring']);
      const { orders, nextAfter } = await partnerOrders.list(m.membership.partner_id, filter);
      const kept = {
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.environment ? { environment: filter.environment } : {}),
        ...(filter.reference ? { q: filter.reference } : {}),
        ...(filter.from ? { from: filter.from } : {}),
        ...(filter.to ? { to: filter.to } : {}),
      };
      const next = nextAfter
        ? `/dashboard/orders?${new URLSearchParams({ ...kept, after: nextAfter })}`
        : undefined;
      const rows = orders.map((o) => ({
        ...o,
        when: accraTime(o.created_at),
        fee: o.fee_pesewas === null ? '—' : formatGhs(Number(o.fee_pesewas)),
      }));
      return web.page(reply, 'orders', {
        title: 'Orders',
        orders: rows,
        filter,
        statuses: DELIVERY_STATUSES,
        next,
        firstPage: !filter.afterId,
        first: `/dashboard/orders${Object.keys(kept).length ? `?${new URLSearchParams(kept)}` : ''}`,
      });
    },
  );

  const NO_ORDER = 'There is no such order in your account.';
  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/orders/:orderId',
      need: 'view',
      params: { orderId: idParam('dlv', NO_ORDER) },
    },
    async ({ reply, actor: m, params }) => {
      const found = await partnerOrders.get(m.membership.partner_id, params.orderId);
      if (!found) throw new WebRefusal(404, NO_ORDER);
      const { order, events } = found;
      const proof = await proofs?.forOrder(order.id);
      const timeline = buildTimeline(events.map((e) => ({ status: e.status, at: e.at }))).map(
        (t) => ({
          ...t,
          when: t.timestamp ? accraTime(t.timestamp) : undefined,
          stop: isStop(t.status),
        }),
      );
      return web.page(reply, 'order', {
        title: `Order ${order.order_reference}`,
        order,
        summary: describeStatus(order.status),
        timeline,
        fee: order.fee_pesewas === null ? '—' : formatGhs(Number(order.fee_pesewas)),
        returnFee:
          order.return_fee_pesewas === null
            ? undefined
            : formatGhs(Number(order.return_fee_pesewas)),
        failure: order.failure_reason ? FAILURE_TITLES[order.failure_reason] : undefined,
        created: accraTime(order.created_at),
        estimated: accraTime(order.estimated_delivery),
        trackingUrl: `${publicBaseUrl}/track/${order.tracking_token}`,
        proof: proof && {
          ...proof,
          method: PROOF_METHODS[proof.method],
          confirmation: proof.confirmation && CONFIRMATIONS[proof.confirmation],
          when: accraTime(proof.recorded_at),
          media: proof.media.map((m) => ({ ...m, when: accraTime(m.taken_at) })),
        },
      });
    },
  );
}
