import type { TodoJson } from '../support/api.ts';
import type { TodoModel } from './model.ts';
import type { WireRequest } from './wire.ts';

export interface ExpectedProblem {
  readonly kind: 'problem';
  readonly status: number;
  /** For a body that parsed but broke the rules: one JSON Pointer per problem. */
  readonly pointers?: readonly string[];
  readonly allow?: string;
}

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
  | ExpectedProblem;

type Fields = { readonly kind: 'fields'; readonly title: string; readonly completed: boolean };

const ALLOW_COLLECTION = 'GET, HEAD, POST, OPTIONS';
const ALLOW_ITEM = 'GET, HEAD, PUT, DELETE, OPTIONS';

export function statusOf(expected: Expected): number {
  switch (expected.kind) {
    case 'created':
      return 201;
    case 'not-modified':
      return 304;
    case 'problem':
      return expected.status;
    default:
      return 200;
  }
}

/** docs/api.md, The order of the checks: route and id, media type, If-Match, size, body, capacity. */
export function predict(model: TodoModel, request: WireRequest): Expected {
  const { spec } = request;
  const target = request.pathId === undefined ? undefined : model.find(request.pathId);
  switch (spec.op) {
    case 'create': {
      const refused = mediaTypeProblem(request) ?? sizeProblem(model, request);
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
        preconditionProblem(model, request, target) ??
        sizeProblem(model, request);
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
      return preconditionProblem(model, request, target) ?? { kind: 'deleted', todo: target };
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
    case 'wrong-method':
      return { kind: 'problem', status: 405, allow: ALLOW_COLLECTION };
    case 'wrong-method-on-item':
      return {
        kind: 'problem',
        status: 405,
        allow: request.pathId === undefined ? ALLOW_COLLECTION : ALLOW_ITEM,
      };
  }
}

function problem(status: number): ExpectedProblem {
  return { kind: 'problem', status };
}

function mediaTypeProblem(request: WireRequest): ExpectedProblem | undefined {
  const essence = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return essence === 'application/json' ? undefined : problem(415);
}

function sizeProblem(model: TodoModel, request: WireRequest): ExpectedProblem | undefined {
  return (request.body?.length ?? 0) > model.limits.maxBodyBytes ? problem(413) : undefined;
}

/** RFC 9110: If-Match compares strongly, so a weak tag never matches. */
function preconditionProblem(
  model: TodoModel,
  request: WireRequest,
  target: TodoJson,
): ExpectedProblem | undefined {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return undefined;
  const current = model.currentEtag(target.id);
  return header.split(',').some((tag) => tag.trim() === current) ? undefined : problem(412);
}

/** RFC 9110: If-None-Match compares weakly. */
function matchesWeakly(header: string | undefined, etag: string | undefined): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function readFields(model: TodoModel, request: WireRequest): Fields | ExpectedProblem {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
  } catch {
    return problem(400);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem(400);
  const body = value as Record<string, unknown>;
  const pathId = request.spec.op === 'create' ? undefined : request.pathId;
  const pointers = fieldPointers(body, pathId, model.limits.maxTitleLength);
  if (pointers.length > 0) return { kind: 'problem', status: 400, pointers };
  return { kind: 'fields', title: body.title as string, completed: body.completed === true };
}

/** The fields docs/api.md refuses, as sorted JSON Pointers; `pathId` only for a PUT. */
function fieldPointers(
  body: Record<string, unknown>,
  pathId: string | undefined,
  maxTitleLength: number,
): string[] {
  const allowed = (key: string) =>
    key === 'title' ||
    key === 'completed' ||
    (key === 'id' && pathId !== undefined && body.id === pathId);
  const pointers = Object.keys(body)
    .filter((key) => !allowed(key))
    .map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  const title = Object.hasOwn(body, 'title') ? body.title : undefined;
  if (typeof title !== 'string' || title.trim() === '' || [...title].length > maxTitleLength) {
    pointers.push('/title');
  }
  const completed = Object.hasOwn(body, 'completed') ? body.completed : undefined;
  const optional = pathId === undefined && completed === undefined;
  if (!optional && typeof completed !== 'boolean') pointers.push('/completed');
  return pointers.sort();
}
