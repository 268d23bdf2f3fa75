import { escapeHtml, htmlPage } from '../../../platform/http/html.ts';
import { describeStatus, buildTimeline } from '../domain/index.ts';
import { maskPhoneLast4 } from '../../../shared/ghana/index.ts';
import type { EventRow, OrderRow } from '../orders/repository.ts';


const accraTime = (d: Date | string) =>
  new Date(d).toLocaleString('en-GB', { timeZone: 'Africa/Accra', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

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

function page(title: string, body: string, refresh = false): string {
  const head = `<meta name="robots" content="noindex">${refresh ? `<meta http-equiv="refresh" content="${TRACKING_REFRESH_SECONDS}">` : ''}`;
  return htmlPage({ title, style: STYLE, head, body: `<main>${body}</main>` });
}

/** The recipient's tracking page: status, timeline and item, never the full phone or address. */
export function renderTrackingPage(order: OrderRow, events: readonly EventRow[]): string {
  const timeline = buildTimeline(events.map((e) => ({ status: e.status, at: e.at })))
    .map((t) => {
      const cls = t.completed ? (t.status === 'cancelled' || t.status === 'failed' ? 'stop' : 'done') : '';
      return `<li class="${cls}"><span class="dot"></span><div><div>${escapeHtml(t.title)}</div>${t.timestamp ? `<div class="muted">${escapeHtml(accraTime(t.timestamp))}</div>` : ''}</div></li>`;
    })
    .join('');
  const moving = !['delivered', 'cancelled', 'failed'].includes(order.status);
  return page(
    `Delivery ${order.order_reference}`,
    `<h1>Your delivery</h1>
<section class="card"><div class="status">${escapeHtml(describeStatus(order.status))}</div>
${moving ? `<div class="muted">Estimated delivery: ${escapeHtml(accraTime(order.estimated_delivery))} (Accra time)</div>` : ''}</section>
<section class="card"><dl><dt>Item</dt><dd>${escapeHtml(order.item)}</dd><dt>Reference</dt><dd>${escapeHtml(order.order_reference)}</dd>
<dt>City</dt><dd>${escapeHtml(order.delivery_city)}</dd><dt>Phone</dt><dd>ending in ${escapeHtml(maskPhoneLast4(order.customer_phone))}</dd></dl></section>
<section class="card"><ol>${timeline}</ol></section>
${moving ? `<p class="muted note">This page refreshes every ${TRACKING_REFRESH_SECONDS} seconds.</p>` : ''}`,
    moving,
  );
}

export function renderNotFoundPage(): string {
  return page('Delivery not found', '<h1>Delivery not found</h1><section class="card">This tracking link is not valid. Check the link you were sent.</section>');
}
