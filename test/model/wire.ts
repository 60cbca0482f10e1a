import { DEFAULT_LIST_PATHS, namedListPaths, type ListPaths } from '../../src/model/resources.ts';
import { unquoted } from '../support/sse.ts';
import { isListRequest } from './list-spec.ts';
import { listWireRequest } from './list-wire.ts';
import type { ListsModel } from './lists-model.ts';
import type { CommandSpec, ItemRequestSpec, SubscribeSpec } from './spec.ts';
import { addressed, itemIdOf, pick } from './targets.ts';
import { conditionHeader, header, sent } from './wire-parts.ts';

/** A command made concrete against the model's state: what goes on the wire. */
export interface WireRequest {
  readonly spec: CommandSpec;
  readonly method: string;
  readonly path: string;
  /** The list the path names, `''` for the default list; none for `/api/lists` itself. */
  readonly listId?: string;
  /** The item's id in the path, on an item route. */
  readonly pathId?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  readonly chunked: boolean;
  /** A stream that resumes: the point of the list's log whose version it names. */
  readonly resumeAt?: number;
}

/** Small enough that a body of a few dozen bytes arrives in pieces, a character split between two. */
const CHUNK_BYTES = 7;

export function pathsOf(listId: string): ListPaths {
  return listId === '' ? DEFAULT_LIST_PATHS : namedListPaths(listId);
}

export function wireRequest(lists: ListsModel, spec: CommandSpec): WireRequest {
  if (isListRequest(spec)) return listWireRequest(lists, spec);
  return spec.op === 'subscribe' ? streamRequest(lists, spec) : itemRequest(lists, spec);
}

/** A stream resumes after a version the model knows, when the spec says so and there is one. */
function streamRequest(lists: ListsModel, spec: SubscribeSpec): WireRequest {
  const at = addressed(lists, spec);
  const points = spec.from === undefined ? [] : (at.known?.log.knownPoints() ?? []);
  const resume = pick(points, spec.from ?? 0);
  return {
    spec,
    method: 'GET',
    path: pathsOf(at.id).sse,
    listId: at.id,
    headers: header('last-event-id', resume && unquoted(resume.version)),
    chunked: false,
    resumeAt: resume?.point,
  };
}

function itemRequest(lists: ListsModel, spec: ItemRequestSpec): WireRequest {
  const at = addressed(lists, spec);
  const { todos } = pathsOf(at.id);
  const model = at.items;
  const slashed = (path: string) => ('slash' in spec && spec.slash ? `${path}/` : path);
  const plain = { spec, listId: at.id, headers: {}, chunked: false };
  switch (spec.op) {
    case 'create':
      return { ...plain, method: 'POST', path: slashed(todos), ...sent(lists.limits, spec.send) };
    case 'list': {
      const condition = conditionHeader(spec.ifNoneMatch, model.listEtag, () =>
        model.staleEtag(undefined),
      );
      return {
        ...plain,
        method: spec.method,
        path: slashed(todos),
        headers: header('if-none-match', condition),
      };
    }
    case 'wrong-method':
      return { ...plain, method: spec.method, path: todos };
    case 'wrong-method-on-item': {
      const id = pick(model.items, spec.pick)?.id;
      // With no item to address, the collection, with a method it refuses too.
      if (id === undefined) return { ...plain, method: 'PATCH', path: todos };
      return { ...plain, method: spec.method, path: `${todos}/${id}`, pathId: id };
    }
    default: {
      const pathId = itemIdOf(lists, at, spec.target);
      const condition = conditionHeader(
        spec.op === 'get' ? spec.ifNoneMatch : spec.ifMatch,
        model.currentEtag(pathId),
        () => model.staleEtag(pathId),
      );
      const name = spec.op === 'get' ? 'if-none-match' : 'if-match';
      const request = {
        ...plain,
        method: spec.op === 'get' ? spec.method : spec.op === 'replace' ? 'PUT' : 'DELETE',
        path: slashed(`${todos}/${pathId}`),
        pathId,
        headers: header(name, condition),
      };
      if (spec.op !== 'replace') return request;
      const body = sent(lists.limits, spec.send, pathId);
      return { ...request, ...body, headers: { ...request.headers, ...body.headers } };
    }
  }
}

/** What `fetch` needs to send the request. */
export function requestInit(request: WireRequest): RequestInit {
  const { method, headers, body, chunked } = request;
  if (body === undefined) return { method, headers };
  if (!chunked) return { method, headers, body: body as Uint8Array<ArrayBuffer> };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + CHUNK_BYTES));
      offset += CHUNK_BYTES;
    },
  });
  return { method, headers, body: stream, duplex: 'half' } as RequestInit;
}
