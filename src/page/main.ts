import { ListApi, listOfPath, TodoApi } from './api-client.ts';
import { TodoController } from './controller.ts';
import { EditSync } from './edit-sync.ts';
import { ListController } from './list-controller.ts';
import { ListView } from './list-view.ts';
import { LiveFeed } from './live-feed.ts';
import { TodoModel } from './model.ts';
import { EditQueue } from './offline-queue.ts';
import { LastSeen } from './page-database.ts';
import { TodoView } from './view.ts';

const { id: listId, paths } = listOfPath(location.pathname);
const todoApi = new TodoApi(paths);
const listApi = new ListApi();
const todoView = new TodoView();
const queue = new EditQueue(listId ?? '', {
  changed: () => todos.editsChanged(),
  notApplied: (notice) => todoView.showNotice(notice),
});
const offline = {
  queue,
  lastSeen: new LastSeen(listId ?? ''),
  sync: new EditSync(queue, todoApi, () => feed.leads && todos.open),
};
const model = new TodoModel(() => queue.edits);
const todos = new TodoController(todoApi, model, todoView, offline, () => lists.check());
const lists = new ListController(
  listId,
  listApi,
  new ListView(),
  todoView,
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
  { paths, ...(listId !== undefined && { exists: () => listApi.exists(listId) }) },
);
todos.start();
lists.start();
feed.start();
void offline.lastSeen.read().then((seen) => seen && todos.showLastSeen(seen));
queue.start().catch((error: unknown) => todoView.showProblem(error));
keepPageFiles();

/** Registers the service worker, and names it the files loaded before it took control. */
function keepPageFiles(): void {
  const workers = navigator.serviceWorker;
  if (workers === undefined) return;
  // A failed registration (storage off, say) leaves the page working online: no news.
  workers.register('/service-worker.js', { type: 'module' }).catch(() => {});
  void workers.ready.then((registration) => {
    const loaded = performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => new URL(url).origin === location.origin);
    registration.active?.postMessage({ keep: [location.href, ...loaded] });
  });
}
