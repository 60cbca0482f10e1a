import { TodoController } from './controller.ts';
import { LiveFeed } from './live-feed.ts';
import { TodoModel } from './model.ts';
import { TodoStore } from './store.ts';
import { TodoView } from './view.ts';

const controller = new TodoController(new TodoStore(), new TodoModel(), new TodoView());
const feed = new LiveFeed({
  event: (event) => controller.receive(event),
  state: (state) => controller.connection(state),
});
controller.start();
feed.start();
