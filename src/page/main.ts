import { TodoController } from './controller.ts';
import { ListApi } from './list-api.ts';
import { ListController } from './list-controller.ts';
import { ListView } from './list-view.ts';
import { openLiveFeed } from './live-feed.ts';
import { TodoModel } from './model.ts';
import { listOfPath } from './page-list.ts';
import { Problems } from './problems.ts';
import { TodoApi } from './todo-api.ts';
import { TodoView } from './view.ts';

const list = listOfPath(location.pathname);
const todoApi = new TodoApi(list.paths);
const listApi = new ListApi();
const todoView = new TodoView();
const problems = new Problems(todoView);
const todos = new TodoController(todoApi, new TodoModel(), todoView, problems, () => lists.check());
const lists = new ListController(list.id, listApi, new ListView(), problems, () => feed.end());
const listId = list.id;
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
