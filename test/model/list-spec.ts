import type { Condition, Sending } from './spec.ts';

/**
 * A named list by way of `/api/lists/{id}`. Picks are resolved against the model when the
 * command runs, as item picks are; the other kinds carry their id, which names no list.
 */
export type NamedTarget =
  | { readonly kind: 'named'; readonly pick: number }
  | { readonly kind: 'deleted'; readonly pick: number }
  /** A named list's id with the case of one letter changed: another base64url id. */
  | { readonly kind: 'respelled'; readonly pick: number }
  /** Well-formed base64url that no list was made with. */
  | { readonly kind: 'never-made'; readonly id: string }
  | { readonly kind: 'malformed'; readonly id: string };

/** The list an item command or a stream addresses; a command without one means the default. */
export type ListTarget = { readonly kind: 'default' } | NamedTarget;

/** A command that is one request to `/api/lists` or `/api/lists/{id}`. */
export type ListRequestSpec =
  /** `send` null sends no body at all, and no Content-Type. */
  | { readonly op: 'create-list'; readonly send: Sending | null }
  | {
      readonly op: 'read-list';
      readonly list: NamedTarget;
      readonly method: 'GET' | 'HEAD';
      readonly ifNoneMatch: Condition;
    }
  | {
      readonly op: 'rename-list';
      readonly list: NamedTarget;
      readonly ifMatch: Condition;
      readonly send: Sending;
    }
  | { readonly op: 'delete-list'; readonly list: NamedTarget; readonly ifMatch: Condition }
  | {
      readonly op: 'wrong-method-on-lists';
      readonly method: 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'PATCH';
    }
  | {
      readonly op: 'wrong-method-on-list';
      readonly list: NamedTarget;
      readonly method: 'POST' | 'PATCH';
    };

const LIST_OPS: ReadonlySet<string> = new Set<ListRequestSpec['op']>([
  'create-list',
  'read-list',
  'rename-list',
  'delete-list',
  'wrong-method-on-lists',
  'wrong-method-on-list',
]);

export function isListRequest(spec: { readonly op: string }): spec is ListRequestSpec {
  return LIST_OPS.has(spec.op);
}
