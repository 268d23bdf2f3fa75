// The dispatch page's map (needs Leaflet, loaded before this file; no inline script: the tile
// settings are in #dispatch-map's data- attributes). Draws on-duty couriers and open orders from
// each snapshot of the board's event stream (console-live.js passes them on as `dispatch:snapshot`).
// A marker's popup says who or what it is; an order's carries a copy of its row's assign form.
(() => {
  const el = document.getElementById('dispatch-map');
  if (!el || typeof L === 'undefined') return;
  const ACCRA = [5.6037, -0.187];
  const STALE_MS = 5 * 60_000;
  el.classList.add('drawn');
  const map = L.map(el, { attributionControl: false }).setView(ACCRA, 12);
  // Without a tile server the markers stand on a plain background. The credit is text under the map.
  if (el.dataset.tiles) L.tileLayer(el.dataset.tiles, { maxZoom: 19 }).addTo(map);
  const markers = new Map();
  let fitted = false;

  const text = (tag, value, className) => {
    const e = document.createElement(tag);
    e.textContent = value;
    if (className) e.className = className;
    return e;
  };
  const ago = (iso) => {
    const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    return s < 60
      ? `${s} s ago`
      : s < 3600
        ? `${Math.floor(s / 60)} min ago`
        : `${Math.floor(s / 3600)} h ago`;
  };

  function courierPopup(c) {
    const box = document.createElement('div');
    box.append(text('strong', `${c.name} (${c.vehicle})`));
    box.append(text('p', `${c.busy ? 'On a job' : 'Free'} · position ${ago(c.position_at)}`));
    return box;
  }
  function orderPopup(o) {
    const box = document.createElement('div');
    const link = text('a', o.id);
    link.href = `/console/orders/${o.id}`;
    box.append(link);
    const state = {
      late: 'Late: nobody accepted',
      unassigned: 'Waiting for a courier',
      offered: 'Offered',
      in_progress: 'In progress',
    }[o.column];
    let line = state + (o.courier ? ` · ${o.courier}` : '');
    if (o.offer_expires_at) {
      const left = Math.round((Date.parse(o.offer_expires_at) - Date.now()) / 1000);
      line += left > 0 ? ` · offer ends in ${left} s` : ' · offer expired';
    }
    box.append(text('p', line));
    // The list's own form (same action, same CSRF token): the popup's copy posts exactly as it does.
    const form = document.getElementById(`assign-${o.id}`);
    if (form) {
      const copy = form.cloneNode(true);
      copy.removeAttribute('id');
      const select = copy.querySelector('select');
      const label = copy.querySelector('label');
      if (select && label) {
        select.id = `popup-${select.id}`;
        label.htmlFor = select.id;
      }
      box.append(copy);
    }
    return box;
  }

  function place(key, at, className, title, popup) {
    let m = markers.get(key);
    if (!at) {
      if (m) m.remove();
      markers.delete(key);
      return;
    }
    const icon = L.divIcon({ className: `pin ${className}`, iconSize: [18, 18] });
    if (!m) {
      m = L.marker([at.lat, at.lng], { icon, title, alt: title, keyboard: true }).addTo(map);
      markers.set(key, m);
    } else {
      m.setLatLng([at.lat, at.lng]);
      if (m.options.icon.options.className !== `pin ${className}`) m.setIcon(icon);
    }
    m.bindPopup(popup);
    const pin = m.getElement();
    if (pin) {
      pin.dataset.id = key.slice(2);
      pin.dataset.lat = String(at.lat);
      pin.dataset.lng = String(at.lng);
    }
  }

  function draw(data) {
    const seen = new Set();
    for (const c of data.couriers) {
      const stale = c.position_at && Date.now() - Date.parse(c.position_at) > STALE_MS;
      const kind = `courier${c.busy ? ' busy' : ''}${stale ? ' stale' : ''}`;
      place(`c:${c.id}`, c.position, kind, `${c.name} (${c.vehicle})`, () => courierPopup(c));
      seen.add(`c:${c.id}`);
    }
    for (const o of data.orders) {
      const kind = `order${o.column === 'late' ? ' late' : ''}`;
      place(`o:${o.id}`, o.position, kind, `Order ${o.id}`, () => orderPopup(o));
      seen.add(`o:${o.id}`);
    }
    for (const key of [...markers.keys()]) if (!seen.has(key)) place(key, null);
    // The view follows what is on it: fitted at first, and again when a marker is outside it.
    const points = [...markers.values()].map((m) => m.getLatLng());
    const view = map.getBounds();
    if (points.length && (!fitted || points.some((at) => !view.contains(at)))) {
      map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 15 });
      fitted = true;
    }
    el.dataset.markers = String(markers.size);
  }

  document.addEventListener('dispatch:snapshot', (event) => draw(event.detail));
})();
