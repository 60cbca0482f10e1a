import { ListApi, listOfPath, TodoApi } from './api-client.ts';
import { TodoController } from './controller.ts';
import { ListController } from './list-controller.ts';
import { LiveFeed } from './live-feed.ts';
import { StatusView } from './status-view.ts';

const { id: listId, paths } = listOfPath(location.pathname);
const todoApi = new TodoApi(paths);
const listApi = new ListApi();
const status = new StatusView();
const todos = new TodoController(
  listId ?? '',
  todoApi,
  status,
  () => feed.leads,
  () => lists.check(),
);
const lists = new ListController(
  listId,
  listApi,
  status,
  () => feed.end(),
  (editable) => todos.allowEdits(editable),
);
const feed = new LiveFeed(
  {
    event: (event) => {
      todos.receive(event);
      lists.receive(event);
    },
    state: (state) => {
      todos.connection(state);
      lists.connection(state);
    },
  },
  todoApi,
  { paths, ...(listId !== undefined && { read: () => listApi.read(listId) }) },
);
todos.start();
lists.start();
feed.start();
// No service worker outside a secure context; a failed registration (storage off, say) leaves
// the page working online: no news.
navigator.serviceWorker?.register('/service-worker.js', { type: 'module' }).catch(() => {});
// The worker keeps the page's own files (none of another origin, nor the API's): it is told
// those loaded before it took control.
void navigator.serviceWorker?.ready.then((registration) => {
  const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
  registration.active?.postMessage({ keep: [location.href, ...loaded] });
});
