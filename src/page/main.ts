import { TodoController } from './controller.ts';
import { EditSync } from './edit-sync.ts';
import { LastSeen } from './last-seen.ts';
import { ListApi } from './list-api.ts';
import { ListController } from './list-controller.ts';
import { ListView } from './list-view.ts';
import { openLiveFeed } from './live-feed.ts';
import { TodoModel } from './model.ts';
import { keepPageFiles } from './offline-files.ts';
import { EditQueue } from './offline-queue.ts';
import { listOfPath } from './page-list.ts';
import { Problems } from './problems.ts';
import { TodoApi } from './todo-api.ts';
import { TodoView } from './view.ts';

const list = listOfPath(location.pathname);
const listId = list.id;
const todoApi = new TodoApi(list.paths);
const listApi = new ListApi();
const todoView = new TodoView();
const problems = new Problems(todoView);
const queue = new EditQueue(listId ?? '', {
  changed: () => todos.editsChanged(),
  notApplied: (notice) => todoView.showNotice(notice),
});
const offline = {
  queue,
  lastSeen: new LastSeen(listId ?? ''),
  sync: new EditSync(queue, todoApi, () => feed.leads && todos.open),
};
const todos = new TodoController(todoApi, new TodoModel(), todoView, problems, offline, () =>
  lists.check(),
);
const lists = new ListController(list.id, listApi, new ListView(), problems, () => feed.end());
const feed = openLiveFeed(
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
  { paths: list.paths, ...(listId !== undefined && { exists: () => listApi.exists(listId) }) },
);
todos.start();
lists.start();
feed.start();
void offline.lastSeen.read().then((seen) => seen && todos.showLastSeen(seen));
queue.start().catch((error: unknown) => problems.show(error));
keepPageFiles();
