/**
 * The commands of the model-based test as plain data: fast-check generates and shrinks them,
 * a failure prints them as JSON, and a regression test lists them as they were printed.
 */

export type { JsonValue } from 'fast-check';
import type { JsonValue } from 'fast-check';
import type { ListRequestSpec, ListTarget } from './list-spec.ts';

/**
 * Which item a command addresses. Picks are resolved against the model when the command runs,
 * so a sequence that shrinking has cut still addresses something.
 */
export type Target =
  | { readonly kind: 'existing'; readonly pick: number }
  | { readonly kind: 'deleted'; readonly pick: number }
  | { readonly kind: 'upper-case'; readonly pick: number }
  /** An item of another list: ids are not shared between lists. */
  | { readonly kind: 'elsewhere'; readonly pick: number }
  | { readonly kind: 'never-issued'; readonly id: string }
  | { readonly kind: 'not-uuid'; readonly id: string };

/** The `id` key of a body: the path's id as sent (PUT may repeat it), in upper case, or any value. */
export type IdField =
  | { readonly kind: 'path-id' }
  | { readonly kind: 'path-id-upper-case' }
  | { readonly kind: 'value'; readonly value: JsonValue };

export interface ObjectBody {
  readonly kind: 'object';
  /** A key left undefined is not sent at all. */
  readonly title?: JsonValue;
  readonly completed?: JsonValue;
  readonly id?: IdField;
  /** Keys a to-do does not have, none of them title, completed or id. */
  readonly extras: readonly (readonly [string, JsonValue])[];
  /** Its last character cut off, so the text is no longer JSON. */
  readonly truncated: boolean;
}

export type BodySpec =
  ObjectBody | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'invalid-utf8' };

export interface Sending {
  readonly body: BodySpec;
  /** `null` sends no Content-Type at all. */
  readonly mediaType: string | null;
  /** Trailing spaces bring the body to exactly the byte limit, or one byte past it. */
  readonly size: 'as-is' | 'at-limit' | 'over-limit';
  /** Sent as a stream, without Content-Length. */
  readonly chunked: boolean;
}

/**
 * How an If-Match or If-None-Match header is made from the ETag the model knows for the
 * target; `stale` is one the target had before a later change, where there is one.
 */
export type Condition = 'none' | 'current' | 'star' | 'stale' | 'weak-current' | 'among-others';

/**
 * The requests of one list's items. `list` says which list; a spec without it (those kept in
 * regressions.ts from before there were lists) addresses the default list.
 */
export type ItemRequestSpec = { readonly list?: ListTarget } & (
  | { readonly op: 'create'; readonly send: Sending; readonly slash: boolean }
  | {
      readonly op: 'replace';
      readonly target: Target;
      readonly ifMatch: Condition;
      readonly send: Sending;
      readonly slash: boolean;
    }
  | {
      readonly op: 'delete';
      readonly target: Target;
      readonly ifMatch: Condition;
      readonly slash: boolean;
    }
  | {
      readonly op: 'get';
      readonly target: Target;
      readonly method: 'GET' | 'HEAD';
      readonly ifNoneMatch: Condition;
      readonly slash: boolean;
    }
  | {
      readonly op: 'list';
      readonly method: 'GET' | 'HEAD';
      readonly ifNoneMatch: Condition;
      readonly slash: boolean;
    }
  | { readonly op: 'wrong-method'; readonly method: 'PUT' | 'DELETE' | 'PATCH' }
  | {
      readonly op: 'wrong-method-on-item';
      readonly pick: number;
      readonly method: 'POST' | 'PATCH';
    }
);

/**
 * One more event stream of a list. Without `from` its snapshot is the list as it then is;
 * with it, it resumes after a version of the list the model knows (`from` picks which), and
 * must replay the changes since. On a list that does not exist, it is a request like another.
 */
export interface SubscribeSpec {
  readonly op: 'subscribe';
  readonly list?: ListTarget;
  readonly from?: number;
}

/** Every command: each is one request to the service. */
export type CommandSpec = ItemRequestSpec | SubscribeSpec | ListRequestSpec;
