import type { TodoListObject } from './todo-list-object.ts';

/** The default list's object: every isolate addresses it by this name. */
export const LIST_NAME = 'todos';

/** The bindings `wrangler.toml` gives the worker and the objects. */
export interface Env {
  /** The namespace of the objects that hold the lists, one object a list. */
  readonly TODO_LIST: DurableObjectNamespace<TodoListObject>;
  /** `public/`, uploaded as Workers static assets. */
  readonly ASSETS: Fetcher;
  /** The `[vars]`: the handler's limits, read by `appConfigFromVars`. */
  readonly [variable: string]: unknown;
}
