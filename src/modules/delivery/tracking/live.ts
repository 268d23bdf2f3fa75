import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../platform/db/index.ts';
import {
  EventStreams,
  shownDigest,
  type StreamMessage,
} from '../../../platform/http/event-stream.ts';
import { describeStatus } from '../domain/index.ts';
import {
  TRACKING_CHANNEL,
  type CourierTracker,
  type TrackedCourier,
} from '../orders/courier-tracker.ts';
import { ordersRepository, type TrackingRow } from '../orders/repository.ts';
import { courierLines, courierWho, trackingEta, underWay } from './page.ts';

/** Streams one tracking link may hold open at once (a recipient shares it with a household); more answer 429. */
export const STREAMS_PER_LINK = 10;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

type Point = { lat: number; lng: number } | null;
const point = (lat: number | null, lng: number | null): Point =>
  lat === null || lng === null ? null : { lat, lng };

/** What a tracking page is told when its delivery moves: the page's words (by data-field) and the map's points. */
export interface TrackingState {
  status: string;
  moving: boolean;
  text: { status: string; eta: string; who: string; stop: string; seen: string };
  courier: boolean;
  position: Point;
  pickup: Point;
  dropoff: Point;
}

function stateOf(
  order: TrackingRow,
  courier: TrackedCourier | undefined,
): StreamMessage & { last: boolean } {
  const moving = underWay(order);
  const lines = moving && courier ? courierLines(courier) : undefined;
  const data: TrackingState = {
    status: order.status,
    moving,
    text: {
      status: describeStatus(order.status),
      eta: moving ? trackingEta(order, courier) : '',
      who: moving && courier ? courierWho(courier.courier) : '',
      stop: lines?.stop ?? '',
      seen: lines?.seen ?? '',
    },
    courier: Boolean(lines),
    position: lines && courier ? courier.position : null,
    pickup: moving ? point(order.pickup_lat, order.pickup_lng) : null,
    dropoff: moving ? point(order.delivery_lat, order.delivery_lng) : null,
  };
  const id = shownDigest(data);
  // Once the delivery has ended, the page reloads to say so in full, and the stream closes.
  return { id, event: 'state', data, last: !moving };
}

/**
 * GET /track/{token}/events: the tracking page's server-sent events, one `state` each time what the
 * page shows changes (woken by committed status changes and courier positions, on any instance).
 */
export function registerTrackingStream(
  app: FastifyInstance,
  db: Db,
  tracker: CourierTracker | undefined,
  find: (token: string) => Promise<{ order: { id: string } } | undefined>,
): EventStreams<string> {
  const streams = new EventStreams<string>({
    name: 'tracking',
    heartbeatMs: HEARTBEAT_MS,
    log: app.log,
    load: async (ids) => {
      const orders = await ordersRepository.trackingMany(db, ids);
      const moving = orders.filter(underWay).map((o) => o.id);
      const couriers =
        moving.length && tracker
          ? await tracker.forOrders(moving)
          : new Map<string, TrackedCourier>();
      return new Map(orders.map((o) => [o.id, stateOf(o, couriers.get(o.id))]));
    },
  });
  let listening: Promise<() => Promise<void>> | undefined;

  app.get<{ Params: { token: string } }>('/track/:token/events', async (request, reply) => {
    const found = await find(request.params.token);
    reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff');
    if (!found)
      return reply.code(404).send({ error: 'This tracking link is not valid.', code: 'NOT_FOUND' });
    const orderId = found.order.id;
    if (streams.openBy(orderId) >= STREAMS_PER_LINK) {
      return reply
        .code(429)
        .header('retry-after', '30')
        .send({
          error: `At most ${STREAMS_PER_LINK} live connections per tracking link: close another tab.`,
          code: 'TOO_MANY_STREAMS',
        });
    }
    listening ??= db.listen(TRACKING_CHANNEL, () => void streams.refresh());
    await listening;
    await streams.open(request, reply, orderId, orderId);
  });

  app.addHook('preClose', async () => {
    streams.closeAll();
    if (listening) await (await listening)();
  });
  return streams;
}
