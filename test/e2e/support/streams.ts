import { hash } from 'node:crypto';
import { loggedPath } from '../../../src/http/router.ts';
import { DEFAULT_LIST_PATHS } from '../../../src/model/resources.ts';
import type { BrowserProblem } from './browser-problems.ts';
import type { Service } from './service.ts';
import type { TodoPage } from './todo-page.ts';

const EVENTS_PATH = DEFAULT_LIST_PATHS.sse;

/**
 * How many event streams the service has opened, of the default list unless told, as its log
 * shows them: a list's id there is its tag (docs/configuration.md, Logs).
 */
export function streamsServed(service: Service, path = EVENTS_PATH): number {
  const logged = loggedPath(path, (id) => hash('sha256', id, 'base64url').slice(0, 8));
  return service.requests().filter((request) => request.path === logged && request.status === 200)
    .length;
}

/** Problems that name exactly the event stream at `origin` (the default list's unless told). */
export function isStreamProblem(
  origin: string,
  problem: BrowserProblem,
  path = EVENTS_PATH,
): boolean {
  const url = new URL(problem.url || 'about:blank');
  return url.origin === origin && url.pathname === path;
}

/** Which tabs asked for the event stream, in order: the tab that holds it asked last. */
export class StreamRequests {
  readonly #tabs: TodoPage[] = [];

  watch(tab: TodoPage): TodoPage {
    tab.page.on('request', (request) => {
      if (new URL(request.url()).pathname === EVENTS_PATH) this.#tabs.push(tab);
    });
    return tab;
  }

  /** How many stream requests the watched tabs made. */
  get count(): number {
    return this.#tabs.length;
  }

  /** The tabs that asked, once each, in the order of their first request. */
  tabs(): TodoPage[] {
    return [...new Set(this.#tabs)];
  }

  /** The open tab that asked last. */
  holder(): TodoPage | undefined {
    return this.#tabs.findLast((tab) => !tab.page.isClosed());
  }
}
