import type { Todo } from './todo.ts';

/**
 * A record of one successful change to the list. `version` identifies the list right after
 * the change: it increases within one store and names the store's run, so a version from
 * another run is recognised as foreign.
 */
export type TodoChange =
  | { readonly type: 'created'; readonly version: string; readonly todo: Todo }
  | { readonly type: 'updated'; readonly version: string; readonly todo: Todo }
  | { readonly type: 'deleted'; readonly version: string; readonly todo: Todo };

export type TodoChangeListener = (change: TodoChange) => void;
