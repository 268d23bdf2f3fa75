import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../platform/db/index.ts';
import { pageHeaders } from '../../../platform/http/html.ts';
import { callLink, type MaskedCallSettings } from './masked-calls.ts';
import type { CourierTracker } from '../orders/courier-tracker.ts';
import { ordersRepository } from '../orders/repository.ts';
import { registerTrackingStream } from './live.ts';
import { liveView, mapView, trackingAssets } from './map-assets.ts';
import type { TrackingMapSettings } from './map-settings.ts';
import { courierLines, renderNotFoundPage, renderTrackingPage, underWay } from './page.ts';

const HEADERS = pageHeaders();
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The live page's policy: still no inline script or style (Leaflet positions its elements through the
 * CSSOM, element.style, which style-src does not restrict), images from here and the tile origin only,
 * and the event stream from here.
 */
export function livePageHeaders(tileOrigin?: string): Record<string, string> {
  return {
    ...HEADERS,
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:${tileOrigin ? ` ${tileOrigin}` : ''}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

const JSON_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

type Point = { lat: number; lng: number } | null;
const point = (lat: number | null, lng: number | null): Point =>
  lat === null || lng === null ? null : { lat, lng };

async function stopsOf(db: Db, orderId: string): Promise<{ pickup: Point; dropoff: Point }> {
  const [row] = await ordersRepository.trackingMany(db, [orderId]);
  return {
    pickup: point(row?.pickup_lat ?? null, row?.pickup_lng ?? null),
    dropoff: point(row?.delivery_lat ?? null, row?.delivery_lng ?? null),
  };
}

/**
 * Public tracking page at `/track/{token}`, for recipients (no key, unguessable token), updated
 * while under way by its event stream at `/track/{token}/events`. With a tile server configured, a
 * map (Leaflet, our own files) and its JSON at `/track/{token}/map.json`.
 */
export function registerTrackingPage(
  app: FastifyInstance,
  db: Db,
  tracker?: CourierTracker,
  map?: TrackingMapSettings,
  calls?: MaskedCallSettings,
): void {
  const assets = trackingAssets(Boolean(map));
  assets.registerEach(app);
  const liveHeaders = livePageHeaders(map?.tileOrigin);
  const find = (token: string) =>
    TOKEN.test(token)
      ? ordersRepository.findByTrackingToken(db, token)
      : Promise.resolve(undefined);
  registerTrackingStream(app, db, tracker, find);

  app.get<{ Params: { token: string } }>('/track/:token', async (request, reply) => {
    const token = request.params.token;
    const found = await find(token);
    reply.headers(HEADERS);
    if (!found) return reply.code(404).send(renderNotFoundPage());
    const moving = underWay(found.order);
    const courier = moving
      ? (await tracker?.forOrders([found.order.id]))?.get(found.order.id)
      : undefined;
    // Location is never shown once the delivery has ended: no map, no stream then either.
    if (moving) reply.headers(liveHeaders);
    const live = moving ? liveView(assets, Boolean(map), `/track/${token}/events`) : undefined;
    return reply.send(
      renderTrackingPage(
        found.order,
        found.events,
        courier,
        live,
        map && moving ? mapView(assets, map) : undefined,
        // Only once a courier has it: before that there is nobody to call.
        calls && courier ? callLink(calls, found.order.id) : undefined,
      ),
    );
  });

  if (!map) return;
  // What the map draws and the courier card says, nothing more; after delivery only the status.
  app.get<{ Params: { token: string } }>('/track/:token/map.json', async (request, reply) => {
    const found = await find(request.params.token);
    reply.headers(JSON_HEADERS);
    if (!found) return reply.code(404).send({ error: 'not_found' });
    const { order } = found;
    if (!underWay(order)) return { status: order.status, moving: false };
    const courier = await tracker?.forOrder(order.id);
    return {
      status: order.status,
      moving: true,
      ...(await stopsOf(db, order.id)),
      courier: courier ?? null,
      courier_text: courier ? courierLines(courier) : null,
    };
  });
}
