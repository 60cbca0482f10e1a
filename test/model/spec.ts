/**
 * The commands of the model-based test as plain data: fast-check generates and shrinks them,
 * a failure prints them as JSON, and a regression test lists them as they were printed.
 */

export type { JsonValue } from 'fast-check';
import type { JsonValue } from 'fast-check';

/**
 * Which item a command addresses. Picks are resolved against the model when the command runs,
 * so a sequence that shrinking has cut still addresses something.
 */
export type Target =
  | { readonly kind: 'existing'; readonly pick: number }
  | { readonly kind: 'deleted'; readonly pick: number }
  | { readonly kind: 'upper-case'; readonly pick: number }
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

/** A command that is one request to the to-do API. */
export type RequestSpec =
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
    };

/** `subscribe` opens one more event stream, whose snapshot is the list as it then is. */
export type CommandSpec = RequestSpec | { readonly op: 'subscribe' };
