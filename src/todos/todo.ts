/** A to-do item exactly as every response shows it: these three keys, no other. */
export interface Todo {
  readonly id: string;
  readonly title: string;
  readonly completed: boolean;
}

/** What a client may set on an item. */
export interface TodoFields {
  readonly title: string;
  readonly completed: boolean;
}
