import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../platform/db/index.ts';
import { pageHeaders } from '../../../platform/http/html.ts';
import type { CourierTracker } from '../orders/courier-tracker.ts';
import { ordersRepository } from '../orders/repository.ts';
import { mapView, trackingMapAssets } from './map-assets.ts';
import type { TrackingMapSettings } from './map-settings.ts';
import { courierLines, renderNotFoundPage, renderTrackingPage, underWay } from './page.ts';

const HEADERS = pageHeaders();
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The map page's policy: still no inline script or style (Leaflet positions its elements through the
 * CSSOM, element.style, which style-src does not restrict), images from here and the tile origin only.
 */
export function mapPageHeaders(tileOrigin: string): Record<string, string> {
  return {
    ...HEADERS,
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: ${tileOrigin}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

const JSON_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

type Point = { lat: number; lng: number } | null;
const point = (lat: number | null, lng: number | null): Point => (lat === null || lng === null ? null : { lat, lng });

async function stopsOf(db: Db, orderId: string): Promise<{ pickup: Point; dropoff: Point }> {
  const [row] = await db.query<{ pickup_lat: number | null; pickup_lng: number | null; delivery_lat: number | null; delivery_lng: number | null }>(
    'select pickup_lat, pickup_lng, delivery_lat, delivery_lng from delivery_orders where id = $1',
    [orderId],
  );
  return { pickup: point(row?.pickup_lat ?? null, row?.pickup_lng ?? null), dropoff: point(row?.delivery_lat ?? null, row?.delivery_lng ?? null) };
}

/**
 * Public tracking page at `/track/{token}`, for recipients (no key, unguessable token). With a tile
 * server configured, a map (Leaflet, our own files) and its JSON at `/track/{token}/map.json`.
 */
export function registerTrackingPage(app: FastifyInstance, db: Db, tracker?: CourierTracker, map?: TrackingMapSettings): void {
  const assets = map ? trackingMapAssets() : undefined;
  assets?.registerEach(app);
  const mapHeaders = map ? mapPageHeaders(map.tileOrigin) : undefined;
  const find = (token: string) => (TOKEN.test(token) ? ordersRepository.findByTrackingToken(db, token) : Promise.resolve(undefined));

  app.get<{ Params: { token: string } }>('/track/:token', async (request, reply) => {
    const token = request.params.token;
    const found = await find(token);
    reply.headers(HEADERS);
    if (!found) return reply.code(404).send(renderNotFoundPage());
    const moving = underWay(found.order);
    const courier = moving ? await tracker?.forOrder(found.order.id) : undefined;
    // Location is never shown once the delivery has ended: no map then either.
    const view = assets && map && moving ? mapView(assets, map, `/track/${token}/map.json`) : undefined;
    if (view && mapHeaders) reply.headers(mapHeaders);
    return reply.send(renderTrackingPage(found.order, found.events, courier, view));
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
    return { status: order.status, moving: true, ...(await stopsOf(db, order.id)), courier: courier ?? null, courier_text: courier ? courierLines(courier) : null };
  });
}
