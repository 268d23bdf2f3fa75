import { fileURLToPath } from 'node:url';
import { Assets } from '../../../platform/web/assets.ts';
import { TRACKING_STYLESHEET, type LiveView, type MapView } from './page.ts';

// The package root, four levels up from both src/modules/delivery/tracking/ and dist/modules/delivery/tracking/:
// our scripts are read from the source tree either way (the Dockerfile copies its directory), Leaflet from node_modules.
const ROOT = new URL('../../../../', import.meta.url);
const file = (path: string) => fileURLToPath(new URL(path, ROOT));
const LEAFLET = 'node_modules/leaflet/dist/';
const OURS = 'src/modules/delivery/tracking/static/';

/** The tracking page's files, served by us under /assets/ with a content hash (no CDN); Leaflet's only with a map. */
export function trackingAssets(withMap: boolean): Assets {
  return new Assets({
    'tracking.css': Buffer.from(TRACKING_STYLESHEET),
    'tracking-live.js': file(`${OURS}tracking-live.js`),
    ...(withMap
      ? {
          'leaflet.js': file(`${LEAFLET}leaflet.js`),
          'leaflet.css': file(`${LEAFLET}leaflet.css`),
          'marker-icon.png': file(`${LEAFLET}images/marker-icon.png`),
          'marker-icon-2x.png': file(`${LEAFLET}images/marker-icon-2x.png`),
          'marker-shadow.png': file(`${LEAFLET}images/marker-shadow.png`),
          'tracking-map.js': file(`${OURS}tracking-map.js`),
        }
      : {}),
  });
}

/**
 * The page's files while under way: Leaflet's stylesheet first, then ours; Leaflet's script, the map's,
 * then the live script that feeds both (all deferred, run in order).
 */
export function liveView(assets: Assets, withMap: boolean, eventsUrl: string): LiveView {
  const map = (names: string[]) => (withMap ? names.map((n) => assets.url(n)) : []);
  return {
    files: {
      css: [...map(['leaflet.css']), assets.url('tracking.css')],
      js: [...map(['leaflet.js', 'tracking-map.js']), assets.url('tracking-live.js')],
    },
    eventsUrl,
  };
}

/** What the map card draws with: the tiles and the marker images. */
export function mapView(assets: Assets, tiles: { tilesUrl: string; attribution: string }): MapView {
  return {
    icons: {
      icon: assets.url('marker-icon.png'),
      icon2x: assets.url('marker-icon-2x.png'),
      shadow: assets.url('marker-shadow.png'),
    },
    tilesUrl: tiles.tilesUrl,
    attribution: tiles.attribution,
  };
}
