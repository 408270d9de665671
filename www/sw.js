// The offline service worker: precaches every file of the site at install, then answers every
// request for the site's own files from that cache. scripts/build.sh fills in PRECACHE (every
// file of dist/, wasm builds included) and VERSION (a hash of their contents), so a new build is
// a new worker with a new cache, and the old cache is dropped when it activates.
const PRECACHE = []; // filled by scripts/build.sh
const VERSION = 'dev'; // filled by scripts/build.sh
const CACHE = `tokscope-${VERSION}`;

// Everything is relative to this worker's own address, so the site works under any sub-path.
const BASE = new URL('./', self.location.href);
const INDEX = new URL('index.html', BASE).href;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `reload` skips the HTTP cache: the precache must hold this build's files, not older ones.
    await cache.addAll(PRECACHE.map((path) => new Request(new URL(path, BASE), { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('tokscope-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.href.startsWith(BASE.href)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A page load of the site's folder (`/repo/`) is its index.html.
    const key = request.mode === 'navigate' && url.pathname.endsWith('/') ? INDEX : url.href;
    const hit = await cache.match(key, { ignoreSearch: true });
    return hit ?? fetch(request);
  })());
});
