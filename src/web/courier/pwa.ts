/** What makes the courier app installable and open offline: its manifest, icon and service worker. */

export function manifest(): string {
  return JSON.stringify({
    name: 'Courier',
    short_name: 'Courier',
    description: 'Partner Platform courier app: duty, position, jobs.',
    start_url: '/courier/',
    scope: '/courier/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1a4f8b',
    icons: [{ src: '/courier/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  });
}

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#1a4f8b"/><circle cx="170" cy="360" r="62" fill="none" stroke="#fff" stroke-width="28"/><circle cx="352" cy="360" r="62" fill="none" stroke="#fff" stroke-width="28"/><path d="M170 360l70-150h90l22 150M240 210h-50" fill="none" stroke="#fff" stroke-width="28" stroke-linejoin="round"/></svg>`;

/**
 * The service worker: the app shell (home page, stylesheet, script, manifest, icon) is cached at
 * install; pages are fetched from the network first and from the cache when offline; our assets
 * (fingerprinted, immutable) from the cache first. Actions (POST) are never cached: the page's queue
 * keeps them.
 */
export function serviceWorker(shell: readonly string[]): string {
  const version = shell
    .join('|')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-24);
  return `'use strict';
const CACHE = 'courier-${version}';
const SHELL = ${JSON.stringify(shell)};
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('courier-') && k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === 'navigate' && url.pathname === '/courier/') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && !response.redirected) caches.open(CACHE).then((c) => c.put('/courier/', response.clone()));
          return response;
        })
        .catch(() => caches.match('/courier/').then((hit) => hit || Response.error())),
    );
  }
});
`;
}
