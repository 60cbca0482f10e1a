/** Serves the page's own files when the service cannot be reached (docs/page.md, Offline). */

// The page is compiled with the DOM's types: these are the service worker's this file uses.
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = Event & { request: Request; respondWith(response: Promise<Response>): void };

const worker = globalThis as unknown as {
  location: Location;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', on: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'message', on: (event: ExtendableEvent & { data: unknown }) => void): void;
  addEventListener(type: 'fetch', on: (event: FetchEvent) => void): void;
};

/** Named with a version: a worker whose copies differ in kind deletes the older caches. */
const CACHE_PREFIX = 'todo-page-';
const CACHE = `${CACHE_PREFIX}1`;
/** Every page of a list is the same file, kept once under `/`. */
const PAGE = '/';
const LIST_PAGE = /^\/(lists\/[^/]+\/?)?$/;
/** What the browser itself fetches for the page (the icon, the manifest): no page names them. */
const SHELL = [PAGE, '/favicon.svg', '/manifest.webmanifest'];

function isPageFile(url: URL): boolean {
  return url.origin === worker.location.origin && !url.pathname.startsWith('/api/');
}

function cacheKeyOf(url: URL): string {
  return LIST_PAGE.test(url.pathname) ? PAGE : url.pathname;
}

async function keep(urls: readonly string[]): Promise<void> {
  const cache = await caches.open(CACHE);
  await Promise.all(
    urls.map(async (href) => {
      const url = new URL(href, worker.location.origin);
      if (!isPageFile(url)) return;
      const response = await fetch(url, { cache: 'no-cache' }).catch(() => undefined);
      if (response?.ok) await cache.put(cacheKeyOf(url), response);
    }),
  );
}

async function networkFirst(request: Request, url: URL): Promise<Response> {
  const key = cacheKeyOf(url);
  try {
    const response = await fetch(request);
    if (response.ok && response.status !== 206) {
      const copy = response.clone();
      void caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  } catch (error) {
    const kept = await caches.match(key, { cacheName: CACHE });
    if (kept === undefined) throw error;
    return kept;
  }
}

async function deleteOlderCaches(): Promise<void> {
  const names = await caches.keys();
  const older = names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE);
  await Promise.all(older.map((name) => caches.delete(name)));
}

worker.addEventListener('install', (event) => {
  event.waitUntil(keep(SHELL).then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(deleteOlderCaches().then(() => worker.clients.claim()));
});

/** A page that loaded before this worker controlled it names the files it loaded. */
worker.addEventListener('message', (event) => {
  const urls = (event.data as { keep?: unknown } | null)?.keep;
  if (Array.isArray(urls)) event.waitUntil(keep(urls.filter((url) => typeof url === 'string')));
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || !isPageFile(url)) return;
  event.respondWith(networkFirst(event.request, url));
});
