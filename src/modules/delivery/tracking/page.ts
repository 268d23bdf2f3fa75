import { fileURLToPath } from 'node:url';
import { pageStylesheet } from '../../../platform/http/html.ts';
import { Views } from '../../../platform/web/views.ts';
import { describeStatus, buildTimeline, isStop } from '../domain/index.ts';
import { maskPhoneLast4 } from '../../../shared/ghana/index.ts';
import type { CourierProgress, TrackedCourier } from '../orders/courier-tracker.ts';
import type { EventRow, OrderRow } from '../orders/repository.ts';

// One formatter made once: toLocaleString would build one per call, the slowest part of a stream refresh.
const ACCRA_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Africa/Accra',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const accraTime = (d: Date | string) => ACCRA_TIME.format(new Date(d));

/** Seconds between the page's own reloads while the delivery is under way (a meta refresh: no script). */
const TRACKING_REFRESH_SECONDS = 30;

const STYLE = `body{background:#f5f6f8}
main{max-width:34rem;margin:0 auto;padding:1.25rem}h1{font-size:1.35rem;margin:.2rem 0 1rem}
.card{background:#fff;border-radius:.75rem;padding:1rem 1.1rem;margin-bottom:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.status{font-size:1.1rem;font-weight:600}.muted{color:#5b6572;font-size:.9rem}.note{margin:0 0 1rem}
ol{list-style:none;padding:0;margin:0}li{display:flex;gap:.75rem;padding:.55rem 0;border-bottom:1px solid #eef0f3}
li:last-child{border-bottom:0}.dot{width:.9rem;height:.9rem;border-radius:50%;border:2px solid #b8c0cc;margin-top:.2rem;flex:none}
li.done .dot{background:#1a7f37;border-color:#1a7f37}li.stop .dot{background:#c62828;border-color:#c62828}
dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;margin:0}dt{color:#5b6572}dd{margin:0}
.call{margin:.8rem 0 .3rem}.call-button{display:inline-block;padding:.65rem 1.1rem;border-radius:.5rem;background:#14532d;color:#fff;font-weight:600;text-decoration:none}
.call-button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}`;

/** The map's own rules (after Leaflet's stylesheet): a phone-sized box, the credit under it. */
const MAP_STYLE = `.map{height:16rem;border-radius:.5rem;background:#e8ebef}.map-card{padding:.5rem}
.map-card .muted{margin:.4rem .3rem 0;font-size:.8rem}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;margin:.5rem .3rem 0;padding:0;font-size:.85rem}
.legend li{display:flex;align-items:center;gap:.35rem;padding:0;border:0}
.key{width:.85rem;height:.85rem;border-radius:50%;border:2px solid #fff;box-shadow:0 0 0 1px #b8c0cc}
.key.pickup{background:#5b6572}.key.dropoff{background:#1a7f37}.key.courier{background:#2a81cb;border-radius:50% 50% 50% 0}`;

// Read from the source tree, as the web apps' templates are (tsc copies no .eta; the Dockerfile does).
const views = new Views(
  fileURLToPath(new URL('../../../../src/modules/delivery/tracking/templates/', import.meta.url)),
);

/**
 * The layout's part of a page: its title, how it refreshes (a meta refresh, one only for a browser
 * without script while the stream updates it, or none once the delivery has ended) and its styles:
 * inline on a page without files, the stylesheet file on the live page's strict CSP.
 */
function pageData(title: string, refresh: false | 'meta' | 'script', live?: LiveView) {
  return live
    ? { title, refresh, refreshSeconds: TRACKING_REFRESH_SECONDS, files: live.files }
    : {
        title,
        refresh,
        refreshSeconds: TRACKING_REFRESH_SECONDS,
        inlineStyle: pageStylesheet(STYLE),
      };
}

/** The tracking page's whole stylesheet when it loads files (the map page's strict CSP allows no inline style). */
export const TRACKING_STYLESHEET = pageStylesheet(`${STYLE}\n${MAP_STYLE}`);

/** The page's files while the delivery is under way: our stylesheet and the live script (fingerprinted URLs), and its event stream. */
export interface LiveView {
  files: { css: readonly string[]; js: readonly string[] };
  /** The page's event stream (events), same-origin. */
  eventsUrl: string;
}

/** What the page needs to draw the map: the tiles and the marker images (its files are in the LiveView). */
export interface MapView {
  /** The courier marker's images. */
  icons: { icon: string; icon2x: string; shadow: string };
  tilesUrl: string;
  /** Plain text; escaped by the template, never handed to Leaflet (its attribution control takes HTML). */
  attribution: string;
}

const VEHICLE_WORDS: Record<string, string> = {
  motorbike: 'a motorbike',
  car: 'a car',
  van: 'a van',
};

/** The courier as the recipient is told: first name and vehicle. */
export const courierWho = (c: TrackedCourier['courier']): string =>
  `${c.first_name}, on ${VEHICLE_WORDS[c.vehicle] ?? c.vehicle}`;

/**
 * The page's one expected time: the courier's live ETA once they carry the parcel to the drop-off,
 * the promised time before that (the pickup leg's ETA is not a delivery time).
 */
export function trackingEta(
  order: Pick<OrderRow, 'estimated_delivery'>,
  courier?: CourierProgress,
): string {
  if (courier?.next_stop === 'dropoff' && courier.eta)
    return `Expected around ${accraTime(courier.eta)} (Accra time)`;
  return `Expected by ${accraTime(order.estimated_delivery)} (Accra time)`;
}

/** The courier's progress in words: where they are headed and when they are expected (the map's text alternative). */
export function courierLines(c: CourierProgress): { stop: string; eta: string; seen: string } {
  return {
    stop:
      c.next_stop === 'pickup'
        ? 'Your courier is on the way to collect your parcel.'
        : 'Your courier is on the way to you.',
    eta: c.eta
      ? `Expected ${c.next_stop === 'pickup' ? 'at the pickup around' : 'around'} ${accraTime(c.eta)}`
      : '',
    seen: `Last seen ${accraTime(c.updated_at)} (Accra time)`,
  };
}

/** Whether the delivery is still under way: the courier, the map and the refresh exist only then. */
export const underWay = (order: Pick<OrderRow, 'status'>): boolean =>
  order.status !== 'delivered' && !isStop(order.status);

/** The recipient's tracking page: status, timeline and item, never the full phone or address; the map and live updates only while under way. */
export function renderTrackingPage(
  order: OrderRow,
  events: readonly EventRow[],
  courier?: CourierProgress | TrackedCourier,
  live?: LiveView,
  mapView?: MapView,
  /** A tel: link to the courier through our masked number, when configured and a courier has the order. */
  call?: string,
): string {
  const timeline = buildTimeline(events.map((e) => ({ status: e.status, at: e.at }))).map((t) => ({
    cls: t.completed ? (isStop(t.status) ? 'stop' : 'done') : '',
    title: t.title,
    at: t.timestamp ? accraTime(t.timestamp) : '',
  }));
  const moving = underWay(order);
  const lines = moving && courier ? courierLines(courier) : undefined;
  return views.render('tracking', {
    ...pageData(
      `Delivery ${order.order_reference}`,
      moving ? (live ? 'script' : 'meta') : false,
      moving ? live : undefined,
    ),
    stream: moving && live ? { eventsUrl: live.eventsUrl, status: order.status } : undefined,
    status: describeStatus(order.status),
    eta: moving ? trackingEta(order, courier) : '',
    courier: lines && {
      who: courier && 'courier' in courier ? courierWho(courier.courier) : '',
      stop: lines.stop,
      seen: lines.seen,
      call,
    },
    map: moving ? mapView : undefined,
    order: {
      item: order.item,
      reference: order.order_reference,
      city: order.delivery_city,
      phoneLast4: maskPhoneLast4(order.customer_phone),
    },
    timeline,
  });
}

export function renderNotFoundPage(): string {
  return views.render('not-found', pageData('Delivery not found', false));
}
