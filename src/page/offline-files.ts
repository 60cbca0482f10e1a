/** Where the page's service worker is served: at the root, so its scope is every page. */
const SERVICE_WORKER = '/service-worker.js';

/**
 * Lets the page open without a connection: registers the service worker, and once it is
 * active tells it the files this page loaded, which it could not see as the page loaded before
 * it took control. Service workers exist only in secure contexts (`https:`, or `localhost`);
 * elsewhere the page works online only, as before.
 */
export function keepPageFiles(): void {
  const workers = navigator.serviceWorker;
  if (workers === undefined) return;
  // A failed registration (storage off, say) leaves the page working online: no news.
  workers.register(SERVICE_WORKER, { type: 'module' }).catch(() => {});
  void workers.ready.then((registration) => {
    const loaded = performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => new URL(url).origin === location.origin);
    registration.active?.postMessage({ keep: [location.href, ...loaded] });
  });
}
