import type { TodoJson } from '../support/api.ts';
import type { ListJson } from '../support/lists.ts';
import type { ListsModel } from './lists-model.ts';
import type { TodoModel } from './model.ts';
import { predictListRequest } from './predict-lists.ts';
import {
  bodyObject,
  matchesWeakly,
  mediaTypeProblem,
  preconditionProblem,
  problem,
  sizeProblem,
  tooLong,
  unknownKeyPointers,
  type ExpectedProblem,
} from './predict-rules.ts';
import type { ItemRequestSpec } from './spec.ts';
import type { WireRequest } from './wire.ts';

/** The answer the contract requires, as far as the model can know it before it comes. */
export type Expected =
  | { readonly kind: 'created'; readonly title: string; readonly completed: boolean }
  | { readonly kind: 'replaced'; readonly todo: TodoJson }
  | { readonly kind: 'deleted'; readonly todo: TodoJson }
  | { readonly kind: 'item'; readonly todo: TodoJson; readonly etag: string | undefined }
  | {
      readonly kind: 'list';
      readonly todos: readonly TodoJson[];
      readonly etag: string | undefined;
    }
  | { readonly kind: 'not-modified'; readonly etag: string | undefined }
  | { readonly kind: 'stream' }
  | { readonly kind: 'list-created'; readonly title: string }
  | { readonly kind: 'list-read'; readonly list: ListJson; readonly etag: string | undefined }
  | { readonly kind: 'list-renamed'; readonly list: ListJson }
  | { readonly kind: 'list-deleted'; readonly list: ListJson }
  | ExpectedProblem;

type Fields = { readonly kind: 'fields'; readonly title: string; readonly completed: boolean };

const ALLOW_COLLECTION = 'GET, HEAD, POST, OPTIONS';
const ALLOW_ITEM = 'GET, HEAD, PUT, DELETE, OPTIONS';

export function statusOf(expected: Expected): number {
  switch (expected.kind) {
    case 'created':
    case 'list-created':
      return 201;
    case 'list-deleted':
      return 204;
    case 'not-modified':
      return 304;
    case 'problem':
      return expected.status;
    default:
      return 200;
  }
}

/**
 * docs/api.md, The order of the checks: route, list and id, media type, If-Match, size, body,
 * capacity. Routes are matched first, so a method a route refuses is a 405 whatever the list.
 */
export function predict(lists: ListsModel, request: WireRequest): Expected {
  const { spec } = request;
  switch (spec.op) {
    case 'wrong-method':
      return { kind: 'problem', status: 405, allow: ALLOW_COLLECTION };
    case 'wrong-method-on-item':
      return {
        kind: 'problem',
        status: 405,
        allow: request.pathId === undefined ? ALLOW_COLLECTION : ALLOW_ITEM,
      };
    case 'subscribe':
      return lists.find(request.listId!) ? { kind: 'stream' } : problem(404);
    case 'create':
    case 'replace':
    case 'delete':
    case 'get':
    case 'list': {
      const list = lists.find(request.listId!);
      return list ? predictItems(list.items, spec, request) : problem(404);
    }
    default:
      return predictListRequest(lists, spec, request);
  }
}

function predictItems(model: TodoModel, spec: ItemRequestSpec, request: WireRequest): Expected {
  const target = request.pathId === undefined ? undefined : model.find(request.pathId);
  switch (spec.op) {
    case 'create': {
      const refused = mediaTypeProblem(request) ?? sizeProblem(request, model.limits.maxBodyBytes);
      if (refused) return refused;
      const fields = readFields(model, request);
      if (fields.kind === 'problem') return fields;
      if (model.items.length >= model.limits.maxItems) return problem(507);
      return { kind: 'created', title: fields.title, completed: fields.completed };
    }
    case 'replace': {
      if (target === undefined) return problem(404);
      const refused =
        mediaTypeProblem(request) ??
        preconditionProblem(request, model.currentEtag(target.id)) ??
        sizeProblem(request, model.limits.maxBodyBytes);
      if (refused) return refused;
      const fields = readFields(model, request);
      if (fields.kind === 'problem') return fields;
      return {
        kind: 'replaced',
        todo: { id: target.id, title: fields.title, completed: fields.completed },
      };
    }
    case 'delete':
      if (target === undefined) return problem(404);
      return (
        preconditionProblem(request, model.currentEtag(target.id)) ?? {
          kind: 'deleted',
          todo: target,
        }
      );
    case 'get': {
      if (target === undefined) return problem(404);
      const etag = model.currentEtag(target.id);
      if (matchesWeakly(request.headers['if-none-match'], etag)) {
        return { kind: 'not-modified', etag };
      }
      return { kind: 'item', todo: target, etag };
    }
    case 'list':
      if (matchesWeakly(request.headers['if-none-match'], model.listEtag)) {
        return { kind: 'not-modified', etag: model.listEtag };
      }
      return { kind: 'list', todos: model.items, etag: model.listEtag };
    default:
      throw new Error(`not an item request: ${spec.op}`);
  }
}

function readFields(model: TodoModel, request: WireRequest): Fields | ExpectedProblem {
  const body = bodyObject(request);
  if (body.kind === 'problem') return body;
  const { value } = body;
  const pathId = request.spec.op === 'create' ? undefined : request.pathId;
  const pointers = fieldPointers(value, pathId, model.limits.maxTitleLength);
  if (pointers.length > 0) return { kind: 'problem', status: 400, pointers };
  return { kind: 'fields', title: value.title as string, completed: value.completed === true };
}

/** The fields docs/api.md refuses, as sorted JSON Pointers; `pathId` only for a PUT. */
function fieldPointers(
  body: Record<string, unknown>,
  pathId: string | undefined,
  maxTitleLength: number,
): string[] {
  const pointers = unknownKeyPointers(
    body,
    (key) =>
      key === 'title' ||
      key === 'completed' ||
      (key === 'id' && pathId !== undefined && body.id === pathId),
  );
  const title = Object.hasOwn(body, 'title') ? body.title : undefined;
  if (typeof title !== 'string' || title.trim() === '' || tooLong(title, maxTitleLength)) {
    pointers.push('/title');
  }
  const completed = Object.hasOwn(body, 'completed') ? body.completed : undefined;
  const optional = pathId === undefined && completed === undefined;
  if (!optional && typeof completed !== 'boolean') pointers.push('/completed');
  return pointers.sort();
}
