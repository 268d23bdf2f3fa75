import { escapeHtml, htmlPage, pageStylesheet } from '../../../platform/http/html.ts';
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
dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;margin:0}dt{color:#5b6572}dd{margin:0}`;

/** The map's own rules (after Leaflet's stylesheet): a phone-sized box, the credit under it. */
const MAP_STYLE = `.map{height:16rem;border-radius:.5rem;background:#e8ebef}.map-card{padding:.5rem}
.map-card .muted{margin:.4rem .3rem 0;font-size:.8rem}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;margin:.5rem .3rem 0;padding:0;font-size:.85rem}
.legend li{display:flex;align-items:center;gap:.35rem;padding:0;border:0}
.key{width:.85rem;height:.85rem;border-radius:50%;border:2px solid #fff;box-shadow:0 0 0 1px #b8c0cc}
.key.pickup{background:#5b6572}.key.dropoff{background:#1a7f37}.key.courier{background:#2a81cb;border-radius:50% 50% 50% 0}`;

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
  /** Plain text; escaped here, never handed to Leaflet (its attribution control takes HTML). */
  attribution: string;
}

function page(
  title: string,
  body: string,
  refresh: false | 'meta' | 'script',
  live?: LiveView,
): string {
  const meta = `<meta http-equiv="refresh" content="${TRACKING_REFRESH_SECONDS}">`;
  // With script, the page's event stream updates it; a browser without script still reloads.
  const head = `<meta name="robots" content="noindex">${refresh === 'meta' ? meta : refresh === 'script' ? `<noscript>${meta}</noscript>` : ''}`;
  return htmlPage({
    title,
    style: STYLE,
    head,
    body: `<main>${body}</main>`,
    ...(live ? { files: live.files } : {}),
  });
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

function courierCard(c: CourierProgress | TrackedCourier): string {
  const l = courierLines(c);
  const who =
    'courier' in c
      ? `<div class="status" data-field="who">${escapeHtml(courierWho(c.courier))}</div>`
      : '';
  return `<section class="card courier">${who}<div data-field="stop">${escapeHtml(l.stop)}</div><div class="muted" data-field="seen">${escapeHtml(l.seen)}</div></section>`;
}

function mapCard(m: MapView): string {
  const data = `data-tiles="${escapeHtml(m.tilesUrl)}" data-icon="${escapeHtml(m.icons.icon)}" data-icon2x="${escapeHtml(m.icons.icon2x)}" data-shadow="${escapeHtml(m.icons.shadow)}"`;
  return `<section class="card map-card"><div id="map" class="map" ${data} role="region" aria-label="Map: pickup, drop-off and your courier (the same progress is given in words on this page)"></div>
<ul class="legend" aria-hidden="true"><li><span class="key pickup"></span>Pickup</li><li><span class="key dropoff"></span>Drop-off</li><li><span class="key courier"></span>Your courier</li></ul>
<p class="muted">Map: ${escapeHtml(m.attribution)}</p></section>`;
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
): string {
  const timeline = buildTimeline(events.map((e) => ({ status: e.status, at: e.at })))
    .map((t) => {
      const cls = t.completed ? (isStop(t.status) ? 'stop' : 'done') : '';
      return `<li class="${cls}"><span class="dot"></span><div><div>${escapeHtml(t.title)}</div>${t.timestamp ? `<div class="muted">${escapeHtml(accraTime(t.timestamp))}</div>` : ''}</div></li>`;
    })
    .join('');
  const moving = underWay(order);
  const map = moving ? mapView : undefined;
  const stream =
    moving && live
      ? ` data-events="${escapeHtml(live.eventsUrl)}" data-status="${escapeHtml(order.status)}"`
      : '';
  return page(
    `Delivery ${order.order_reference}`,
    `<h1>Your delivery</h1>
<section class="card"${stream}><div class="status" data-field="status">${escapeHtml(describeStatus(order.status))}</div>
${moving ? `<div class="muted" data-field="eta">${escapeHtml(trackingEta(order, courier))}</div>` : ''}</section>
${moving && courier ? courierCard(courier) : ''}
${map ? mapCard(map) : ''}
<section class="card"><dl><dt>Item</dt><dd>${escapeHtml(order.item)}</dd><dt>Reference</dt><dd>${escapeHtml(order.order_reference)}</dd>
<dt>City</dt><dd>${escapeHtml(order.delivery_city)}</dd><dt>Phone</dt><dd>ending in ${escapeHtml(maskPhoneLast4(order.customer_phone))}</dd></dl></section>
<section class="card"><ol>${timeline}</ol></section>
${moving ? `<p class="muted note">${live ? `This page updates itself as your delivery moves.<noscript> It refreshes every ${TRACKING_REFRESH_SECONDS} seconds.</noscript>` : `This page refreshes every ${TRACKING_REFRESH_SECONDS} seconds.`}</p>` : ''}`,
    moving && (live ? 'script' : 'meta'),
    moving ? live : undefined,
  );
}

export function renderNotFoundPage(): string {
  return page(
    'Delivery not found',
    '<h1>Delivery not found</h1><section class="card">This tracking link is not valid. Check the link you were sent.</section>',
    false,
  );
}
