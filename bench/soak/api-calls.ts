import { parseEtag } from './event-ids.ts';
import type { Answer, Ask } from '../http-request.ts';
import type { ChangeType } from './ledger.ts';
import { between } from './random.ts';

/** An item a worker made and alone changes, so it knows every answer about it in advance. */
export interface Owned {
  readonly id: string;
  etag: string;
  /** An ETag the item had before its last update. */
  stale: string | undefined;
}

/** What a call did to the list, for the ledger; undefined when it changed nothing. */
export interface Change {
  readonly seq: number | undefined;
  readonly type: ChangeType;
  readonly todoId: string;
}

/** One request, the statuses that are right for it, and what to check in the answer. */
export interface Call {
  readonly kind: string;
  readonly ask: Ask;
  readonly expect: readonly number[];
  /** Checks the answer (throws what is wrong) and tells the change it made, if any. */
  readonly accept?: (answer: Answer) => Change | undefined;
}

export const JSON_HEADERS = { 'content-type': 'application/json' };
export const COLLECTION = '/api/todos';
const WORDS = ['milk', 'call Ada', 'fix the bike', 'café', '✓ done?', '日本語', 'taxes', 'ship it'];

const title = () =>
  Array.from({ length: between(1, 6) }, () => WORDS[between(0, WORDS.length - 1)]).join(' ');

export const itemPath = (id: string) => `${COLLECTION}/${id}`;

function readTodo(answer: Answer, id?: string): { id: string; title: string } {
  const todo = JSON.parse(answer.body) as { id: string; title: string; completed: boolean };
  if (Object.keys(todo).sort().join() !== 'completed,id,title') {
    throw new Error(`an item with keys ${Object.keys(todo).join()}`);
  }
  if (id !== undefined && todo.id !== id) throw new Error(`item ${todo.id} where ${id} was asked`);
  return todo;
}

function etagOf(answer: Answer): { etag: string; seq: number } {
  const etag = answer.headers.etag;
  const parsed = parseEtag(etag);
  if (etag === undefined || parsed === undefined) throw new Error(`an ETag of ${etag}`);
  return { etag, seq: parsed.seq };
}

export function create(onCreated: (owned: Owned) => void): Call {
  const sent = title();
  const body = JSON.stringify(
    Math.random() < 0.5 ? { title: sent } : { title: sent, completed: true },
  );
  return {
    kind: 'create',
    ask: { method: 'POST', path: COLLECTION, headers: JSON_HEADERS, body },
    expect: [201],
    accept: (answer) => {
      const todo = readTodo(answer);
      if (todo.title !== sent) throw new Error(`title ${todo.title} stored for ${sent}`);
      if (answer.headers.location !== itemPath(todo.id)) {
        throw new Error(`Location ${answer.headers.location} for ${todo.id}`);
      }
      const { etag, seq } = etagOf(answer);
      onCreated({ id: todo.id, etag, stale: undefined });
      return { seq, type: 'created', todoId: todo.id };
    },
  };
}

export function list(lastEtag: string | undefined, onEtag: (etag: string) => void): Call {
  const conditional = lastEtag !== undefined && Math.random() < 0.5;
  return {
    kind: 'list',
    ask: {
      method: 'GET',
      path: COLLECTION,
      headers: conditional ? { 'if-none-match': lastEtag } : {},
    },
    expect: conditional ? [200, 304] : [200],
    accept: (answer) => {
      if (answer.status === 200 && !answer.body.startsWith('[')) throw new Error('not a list');
      onEtag(etagOf(answer).etag);
      return undefined;
    },
  };
}

export function get(owned: Owned): Call {
  const conditional = Math.random() < 0.5;
  return {
    kind: 'get',
    ask: {
      method: 'GET',
      path: itemPath(owned.id),
      headers: conditional ? { 'if-none-match': owned.etag } : {},
    },
    expect: [conditional ? 304 : 200],
    accept: (answer) => {
      if (answer.status === 200) readTodo(answer, owned.id);
      if (answer.headers.etag !== owned.etag)
        throw new Error(`ETag ${answer.headers.etag}, not ${owned.etag}`);
      return undefined;
    },
  };
}

export function update(owned: Owned, ifMatch: boolean): Call {
  const sent = title();
  // Clients send back what they got, id included; the service allows the same id.
  const fields = { title: sent, completed: Math.random() < 0.5 };
  const body = JSON.stringify(Math.random() < 0.3 ? { id: owned.id, ...fields } : fields);
  return {
    kind: ifMatch ? 'update (If-Match)' : 'update',
    ask: {
      method: 'PUT',
      path: itemPath(owned.id),
      headers: ifMatch ? { ...JSON_HEADERS, 'if-match': owned.etag } : JSON_HEADERS,
      body,
    },
    expect: [200],
    accept: (answer) => {
      if (readTodo(answer, owned.id).title !== sent)
        throw new Error('the title sent was not stored');
      const { etag, seq } = etagOf(answer);
      owned.stale = owned.etag;
      owned.etag = etag;
      return { seq, type: 'updated', todoId: owned.id };
    },
  };
}

export function remove(owned: Owned, ifMatch: boolean): Call {
  return {
    kind: 'delete',
    ask: {
      method: 'DELETE',
      path: itemPath(owned.id),
      headers: ifMatch ? { 'if-match': owned.etag } : {},
    },
    expect: [200],
    accept: (answer) => {
      readTodo(answer, owned.id);
      // The answer's ETag is the item's before the delete: the delete's seq is not told.
      return { seq: undefined, type: 'deleted', todoId: owned.id };
    },
  };
}
