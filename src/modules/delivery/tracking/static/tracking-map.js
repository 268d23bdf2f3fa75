// The tracking page's map: progressive enhancement over the page's words (no inline script: the
// settings are in #map's data- attributes). Needs Leaflet (leaflet.js, loaded before this file).
// Draws the pickup, the drop-off and the courier from each state the page's event stream sends
// (tracking-live.js passes them on as `tracking:state` events).
(() => {
  const el = document.getElementById('map');
  if (!el || typeof L === 'undefined') return;
  const d = el.dataset;
  const ACCRA = [5.6037, -0.187];
  const map = L.map(el, { attributionControl: false, scrollWheelZoom: false }).setView(ACCRA, 11);
  // The credit is shown as text under the map (Leaflet's attribution control takes HTML).
  L.tileLayer(d.tiles, { maxZoom: 19 }).addTo(map);
  const icon = L.icon({
    iconUrl: d.icon,
    iconRetinaUrl: d.icon2x,
    shadowUrl: d.shadow,
    iconSize: [25, 41],
    iconAnchor: [12, 41],
    shadowSize: [41, 41],
  });
  const stop = (color, label) =>
    L.circleMarker(ACCRA, {
      radius: 8,
      color: '#fff',
      weight: 2,
      fillColor: color,
      fillOpacity: 1,
    }).bindTooltip(label);
  const markers = {
    pickup: stop('#5b6572', 'Pickup'),
    dropoff: stop('#1a7f37', 'Drop-off'),
    courier: L.marker(ACCRA, { icon, alt: 'Your courier', title: 'Your courier', keyboard: false }),
  };
  let fitted = false;

  const place = (name, at) => {
    const m = markers[name];
    if (!at) return void m.remove();
    m.setLatLng([at.lat, at.lng]);
    if (!map.hasLayer(m)) m.addTo(map);
  };

  const draw = (data) => {
    place('pickup', data.pickup);
    place('dropoff', data.dropoff);
    place('courier', data.position);
    const points = [data.pickup, data.dropoff, data.position]
      .filter(Boolean)
      .map((p) => [p.lat, p.lng]);
    if (!points.length) return;
    if (!fitted) map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 16 });
    else if (data.position && !map.getBounds().contains(points[points.length - 1]))
      map.panTo(points[points.length - 1]);
    fitted = true;
    el.dataset.drawn = String(points.length);
  };

  document.addEventListener('tracking:state', (event) => draw(event.detail));
})();
