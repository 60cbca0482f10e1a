import type { ListsModel } from './lists-model.ts';
import type { ListRequestSpec } from './list-spec.ts';
import type { Expected } from './predict.ts';
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
import type { WireRequest } from './wire.ts';

const ALLOW_LISTS = 'POST, OPTIONS';
const ALLOW_LIST = 'GET, HEAD, PUT, DELETE, OPTIONS';

/**
 * docs/api.md, Lists: a create checks its body (when it has one) before capacity; a list's
 * own route checks the list, then the media type, If-Match (against the title's ETag), size
 * and body. A method a route refuses is a 405 whatever the id.
 */
export function predictListRequest(
  lists: ListsModel,
  spec: ListRequestSpec,
  request: WireRequest,
): Expected {
  switch (spec.op) {
    case 'wrong-method-on-lists':
      return { kind: 'problem', status: 405, allow: ALLOW_LISTS };
    case 'wrong-method-on-list':
      return { kind: 'problem', status: 405, allow: ALLOW_LIST };
    case 'create-list':
      return predictCreate(lists, request);
  }
  const list = lists.find(request.listId!);
  if (list === undefined) return problem(404);
  const maxBodyBytes = lists.limits.maxBodyBytes;
  switch (spec.op) {
    case 'read-list':
      if (matchesWeakly(request.headers['if-none-match'], list.titleEtag)) {
        return { kind: 'not-modified', etag: list.titleEtag };
      }
      return { kind: 'list-read', list: list.info, etag: list.titleEtag };
    case 'rename-list': {
      const refused =
        mediaTypeProblem(request) ??
        preconditionProblem(request, list.titleEtag) ??
        sizeProblem(request, maxBodyBytes);
      if (refused) return refused;
      const title = readTitle(request, list.id, lists.limits.maxTitleLength);
      if (typeof title !== 'string') return title;
      return { kind: 'list-renamed', list: { ...list.info, title } };
    }
    case 'delete-list':
      return (
        preconditionProblem(request, list.titleEtag) ?? { kind: 'list-deleted', list: list.info }
      );
  }
}

/** A request without a byte of body makes an untitled list, whatever it declares. */
function predictCreate(lists: ListsModel, request: WireRequest): Expected {
  let title = '';
  if ((request.body?.length ?? 0) > 0) {
    const refused = mediaTypeProblem(request) ?? sizeProblem(request, lists.limits.maxBodyBytes);
    if (refused) return refused;
    const read = readTitle(request, undefined, lists.limits.maxTitleLength);
    if (typeof read !== 'string') return read;
    title = read;
  }
  return lists.full ? problem(507) : { kind: 'list-created', title };
}

/**
 * The title a list body sets: its only key, a string of at most `maxTitleLength` code points,
 * which may be empty or blank. A create may leave it out; a rename (`pathId` given) may not,
 * and may repeat the path's id.
 */
function readTitle(
  request: WireRequest,
  pathId: string | undefined,
  maxTitleLength: number,
): string | ExpectedProblem {
  const body = bodyObject(request);
  if (body.kind === 'problem') return body;
  const { value } = body;
  const pointers = unknownKeyPointers(
    value,
    (key) => key === 'title' || (key === 'id' && pathId !== undefined && value.id === pathId),
  );
  const title = Object.hasOwn(value, 'title') ? value.title : undefined;
  const titleRefused =
    title === undefined
      ? pathId !== undefined
      : typeof title !== 'string' || tooLong(title, maxTitleLength);
  if (titleRefused) pointers.push('/title');
  if (pointers.length > 0) return { kind: 'problem', status: 400, pointers: pointers.sort() };
  return (title as string | undefined) ?? '';
}
