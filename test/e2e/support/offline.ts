import type { BrowserProblems } from './browser-problems.ts';
import { eventually, type TodoPage } from './todo-page.ts';

/**
 * Waits until the page's service worker keeps every file the page loaded (and the page itself,
 * under `/`): it can open offline now.
 */
export async function untilWorksOffline(tab: TodoPage): Promise<void> {
  await eventually(
    () =>
      tab.page.evaluate(async () => {
        const loaded = performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name))
          .filter((url) => url.origin === location.origin && !url.pathname.startsWith('/api/'));
        const paths = ['/', ...loaded.map((url) => url.pathname)];
        const kept = await Promise.all(paths.map((path) => caches.match(path)));
        return paths.filter((_, at) => kept[at] === undefined);
      }),
    10_000,
  ).toEqual([]);
}

/**
 * While the service is unreachable on purpose, the page's requests to its API (the stream, the
 * edits it tries) fail: allowed on `origin` and under `/api/` only. The page's own files must
 * still load, from the service worker.
 */
export function allowUnreachableApi(problems: BrowserProblems, origin: string): void {
  problems.allow((problem) => {
    const url = new URL(problem.url || 'about:blank');
    const kinds = ['failed request', 'console error'];
    return (
      url.origin === origin && url.pathname.startsWith('/api/') && kinds.includes(problem.kind)
    );
  });
}

/** The titles of the items marked as not sent yet, and what the mark says. */
export function pendingItems(tab: TodoPage): Promise<string[]> {
  return tab.page
    .locator('.todo-list li.pending')
    .evaluateAll((items) =>
      items.map(
        (li) =>
          `${li.querySelector('label')?.textContent} (${li.querySelector('.pending-mark')?.textContent})`,
      ),
    );
}

/** What the page says of the edits waiting to be sent. */
export function pendingStatus(tab: TodoPage): Promise<string> {
  return tab.page.locator('.pending-status').innerText();
}
