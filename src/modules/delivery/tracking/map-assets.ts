import { fileURLToPath } from 'node:url';
import { Assets } from '../../../platform/web/assets.ts';
import { TRACKING_STYLESHEET, type MapView } from './page.ts';

// The package root, four levels up from both src/modules/delivery/tracking/ and dist/modules/delivery/tracking/:
// our script is read from the source tree either way (the Dockerfile copies its directory), Leaflet from node_modules.
const ROOT = new URL('../../../../', import.meta.url);
const file = (path: string) => fileURLToPath(new URL(path, ROOT));
const LEAFLET = 'node_modules/leaflet/dist/';

/** The map's files, served by us under /assets/ with a content hash (no CDN). */
export function trackingMapAssets(): Assets {
  return new Assets({
    'leaflet.js': file(`${LEAFLET}leaflet.js`),
    'leaflet.css': file(`${LEAFLET}leaflet.css`),
    'marker-icon.png': file(`${LEAFLET}images/marker-icon.png`),
    'marker-icon-2x.png': file(`${LEAFLET}images/marker-icon-2x.png`),
    'marker-shadow.png': file(`${LEAFLET}images/marker-shadow.png`),
    'tracking-map.js': file('src/modules/delivery/tracking/static/tracking-map.js'),
    'tracking.css': Buffer.from(TRACKING_STYLESHEET),
  });
}

/** The page's part of the map: Leaflet's stylesheet first, then ours; Leaflet's script before ours (both deferred, in order). */
export function mapView(assets: Assets, tiles: { tilesUrl: string; attribution: string }, dataUrl: string): MapView {
  return {
    files: { css: [assets.url('leaflet.css'), assets.url('tracking.css')], js: [assets.url('leaflet.js'), assets.url('tracking-map.js')] },
    icons: { icon: assets.url('marker-icon.png'), icon2x: assets.url('marker-icon-2x.png'), shadow: assets.url('marker-shadow.png') },
    tilesUrl: tiles.tilesUrl,
    attribution: tiles.attribution,
    dataUrl,
  };
}
