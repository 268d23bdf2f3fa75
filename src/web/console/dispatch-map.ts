import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Assets } from '../../platform/web/assets.ts';
import { WEB_CSP } from '../../platform/web/headers.ts';
import type { ConsoleKit } from './kit.ts';

// The package root, three levels up from both src/web/console/ and dist/web/console/: Leaflet is read
// from node_modules, our scripts from src/web/static/ (the Dockerfile copies both).
const ROOT = new URL('../../../', import.meta.url);
const file = (path: string) => fileURLToPath(new URL(path, ROOT));

/** What the dispatch template draws the map with: our files, and the tiles when a tile server is set. */
export interface DispatchMapView {
  css: string;
  js: string[];
  tilesUrl?: string | undefined;
  attribution?: string | undefined;
}

/**
 * The dispatch page's map: Leaflet and our map script served under /assets/ (Leaflet under its own
 * console- names, so its URLs never clash with the tracking page's exact routes of the same file),
 * and the page's policy with the tile server's origin added to img-src when one is configured.
 */
export function dispatchMap(
  app: FastifyInstance,
  kit: ConsoleKit,
): { view: DispatchMapView; headers: Record<string, string> } {
  const assets = new Assets({
    'console-leaflet.js': file('node_modules/leaflet/dist/leaflet.js'),
    'console-leaflet.css': file('node_modules/leaflet/dist/leaflet.css'),
  });
  assets.registerEach(app);
  const tiles = kit.deps.map;
  return {
    view: {
      css: assets.url('console-leaflet.css'),
      js: [
        assets.url('console-leaflet.js'),
        kit.web.assetUrl('console-map.js'),
        kit.web.assetUrl('console-live.js'),
      ],
      tilesUrl: tiles?.tilesUrl,
      attribution: tiles?.attribution,
    },
    headers: tiles
      ? {
          'content-security-policy': WEB_CSP.replace(
            "img-src 'self' data:",
            `img-src 'self' data: ${tiles.tileOrigin}`,
          ),
        }
      : {},
  };
}
