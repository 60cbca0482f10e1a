/**
 * The page's service worker: serves the page's own files when the service cannot be reached.
 * Network first: online, every file comes from the service as before (so a new version shows at
 * once, never mixed with the old), and the copy kept is refreshed; only a failed fetch falls
 * back to that copy. `/api/` is never touched: the list and its event stream always go to the
 * service, so nothing stale is ever served while online.
 */

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}

interface WorkerScope {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
}

const worker = globalThis as unknown as WorkerScope;

/** Named with a version: a worker whose copies differ in kind deletes the older caches. */
const CACHE_PREFIX = 'todo-page-';
const CACHE = `${CACHE_PREFIX}1`;
/** Every page of a list is the same file, kept once under `/`. */
const PAGE = '/';
const LIST_PAGE = /^\/(lists\/[^/]+\/?)?$/;

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

/** What the browser itself fetches for the page (the icon, the manifest): no page names them. */
const SHELL = [PAGE, '/favicon.svg', '/manifest.webmanifest'];

worker.addEventListener('install', (event) => {
  event.waitUntil(keep(SHELL).then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
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

export {};
