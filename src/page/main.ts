import { TodoController } from './controller.ts';
import { openLiveFeed } from './live-feed.ts';
import { TodoModel } from './model.ts';
import { TodoApi } from './todo-api.ts';
import { TodoView } from './view.ts';

const api = new TodoApi();
const controller = new TodoController(api, new TodoModel(), new TodoView());
const feed = openLiveFeed(
  {
    event: (event) => controller.receive(event),
    state: (state) => controller.connection(state),
  },
  api,
);
controller.start();
feed.start();
