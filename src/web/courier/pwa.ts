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
 * keeps them. A push (a new offer) shows a notification, one per offer by its tag, unless the app
 * is on screen (it draws the offer itself then); a tap on it brings the app forward or opens it.
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
self.addEventListener('push', (event) => {
  let offer = {};
  try { offer = event.data ? event.data.json() : {}; } catch {}
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((windows) => {
      if (windows.some((w) => w.visibilityState === 'visible')) return undefined;
      return self.registration.showNotification(offer.title || 'New job offered', {
        body: offer.body || 'Open the courier app to answer it.',
        tag: offer.tag || 'offer',
        icon: '/courier/icon.svg',
        data: { url: '/courier/', order_id: offer.order_id },
        requireInteraction: true,
        vibrate: [200, 100, 200],
      });
    }),
  );
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname.startsWith('/courier/'));
      return open ? open.focus() : self.clients.openWindow('/courier/');
    }),
  );
});
`;
}
