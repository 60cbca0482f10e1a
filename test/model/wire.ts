import { MISSING_ID } from '../support/api.ts';
import type { TodoModel } from './model.ts';
import { bodyBytes } from './body-bytes.ts';
import type { Condition, RequestSpec, Sending, Target } from './spec.ts';

/** A command made concrete against the model's state: what goes on the wire. */
export interface WireRequest {
  readonly spec: RequestSpec;
  readonly method: string;
  readonly path: string;
  /** The id in the path, on an item route. */
  readonly pathId?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  readonly chunked: boolean;
}

const COLLECTION = '/api/todos';
/** Small enough that a body of a few dozen bytes arrives in pieces, a character split between two. */
const CHUNK_BYTES = 7;

export function wireRequest(model: TodoModel, spec: RequestSpec): WireRequest {
  const slashed = (path: string) => ('slash' in spec && spec.slash ? `${path}/` : path);
  switch (spec.op) {
    case 'create':
      return { spec, method: 'POST', path: slashed(COLLECTION), ...sent(model, spec.send) };
    case 'list': {
      const condition = conditionHeader(spec.ifNoneMatch, model.listEtag, () =>
        model.staleEtag(undefined),
      );
      return {
        spec,
        method: spec.method,
        path: slashed(COLLECTION),
        headers: condition === undefined ? {} : { 'if-none-match': condition },
        chunked: false,
      };
    }
    case 'wrong-method':
      return { spec, method: spec.method, path: COLLECTION, headers: {}, chunked: false };
    case 'wrong-method-on-item': {
      const id = pick(model.items, spec.pick)?.id;
      // With no item to address, the collection, with a method it refuses too.
      if (id === undefined)
        return { spec, method: 'PATCH', path: COLLECTION, headers: {}, chunked: false };
      return {
        spec,
        method: spec.method,
        path: `${COLLECTION}/${id}`,
        pathId: id,
        headers: {},
        chunked: false,
      };
    }
    default: {
      const pathId = idOf(model, spec.target);
      const condition = conditionHeader(
        spec.op === 'get' ? spec.ifNoneMatch : spec.ifMatch,
        model.currentEtag(pathId),
        () => model.staleEtag(pathId),
      );
      const name = spec.op === 'get' ? 'if-none-match' : 'if-match';
      const request = {
        spec,
        method: spec.op === 'get' ? spec.method : spec.op === 'replace' ? 'PUT' : 'DELETE',
        path: slashed(`${COLLECTION}/${pathId}`),
        pathId,
        headers: condition === undefined ? {} : { [name]: condition },
        chunked: false,
      };
      if (spec.op !== 'replace') return request;
      const body = sent(model, spec.send, pathId);
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

function sent(model: TodoModel, send: Sending, pathId?: string) {
  const headers: Record<string, string> =
    send.mediaType === null ? {} : { 'content-type': send.mediaType };
  return {
    headers,
    body: bodyBytes(send, model.limits.maxBodyBytes, pathId),
    chunked: send.chunked,
  };
}

function pick<T>(from: readonly T[], index: number): T | undefined {
  return from.length === 0 ? undefined : from[index % from.length];
}

function idOf(model: TodoModel, target: Target): string {
  const ids = model.items.map((todo) => todo.id);
  switch (target.kind) {
    case 'existing':
      return pick(ids, target.pick) ?? MISSING_ID;
    case 'deleted':
      return pick(model.deleted, target.pick) ?? MISSING_ID;
    case 'upper-case':
      return (pick(ids, target.pick) ?? MISSING_ID).toUpperCase();
    case 'never-issued':
    case 'not-uuid':
      return target.id;
  }
}

function conditionHeader(
  condition: Condition,
  current: string | undefined,
  stale: () => string,
): string | undefined {
  switch (condition) {
    case 'none':
      return undefined;
    case 'star':
      return '*';
    case 'stale':
      return stale();
    case 'current':
      return current;
    case 'weak-current':
      return current && `W/${current}`;
    case 'among-others':
      return current && `"other", ${current}`;
  }
}
