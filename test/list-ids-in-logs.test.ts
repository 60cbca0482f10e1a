import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LISTS_PATH, listPageOf, listPathOf, namedListPaths } from '../src/model/resources.ts';
import { MISSING_ID, sendJson } from './support/api.ts';
import { ServiceProcess } from './support/service-process.ts';
import { openStream, unquoted } from './support/sse.ts';
import { useWorkerd } from './support/workerd-host.ts';

/** The tag docs/configuration.md (Logs) says a log writes for a list's id. */
const tagOf = (listId: string) =>
  createHash('sha256').update(listId).digest('base64url').slice(0, 8);

/** A value no log can hold by chance: if one holds it, it was written there. */
const unique = (what: string) => `${what}-${randomBytes(8).toString('hex')}`;

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** `fetch` of `path`, its body read; the answer must be `status`. */
async function answered(fetch: Fetch, path: string, init: RequestInit, status: number) {
  const response = await fetch(path, init);
  const body = await response.text();
  expect(response.status, `${init.method ?? 'GET'} ${path}: ${body}`).toBe(status);
  return { headers: response.headers, body };
}

/** What a run sent: the lists it made, and every value no log may hold. */
interface Sent {
  readonly keyedId: string;
  /** The create that made it, with its key: a retry answers as it did. */
  readonly keyedCreate: RequestInit;
  readonly plainId: string;
  readonly unknownId: string;
  readonly secrets: readonly string[];
}

/**
 * Every route of the API, on a list made with an `Idempotency-Key` and one made without, with a
 * failure on each kind of route. `unknownId`, of the host's shape, names no list: it stands for
 * every other id a path may hold (a deleted list's, a view id).
 */
async function useEveryRoute(fetch: Fetch, unknownId: string): Promise<Sent> {
  const [listKey, itemKey, inQuery] = [unique('list-key'), unique('item-key'), unique('query')];
  const badKeys = [unique('bad-key'), unique('bad-key')];
  const call = (path: string, init: RequestInit, status: number) =>
    answered(fetch, path, init, status);

  const keyed = sendJson('POST', { title: 'Keyed' }, { 'idempotency-key': `"${listKey}"` });
  const keyedId = (JSON.parse((await call(LISTS_PATH, keyed, 201)).body) as { id: string }).id;
  await call(LISTS_PATH, keyed, 201);
  const plain = await call(LISTS_PATH, sendJson('POST', { title: 'Plain' }), 201);
  const { id: plainId, viewId } = JSON.parse(plain.body) as { id: string; viewId: string };
  const twoKeys = { 'idempotency-key': badKeys.map((key) => `"${key}"`).join(', ') };
  await call(LISTS_PATH, sendJson('POST', { title: 'Refused' }, twoKeys), 400);

  const list = listPathOf(plainId);
  await call(list, {}, 200);
  await call(list, { method: 'HEAD' }, 200);
  const preflight = { origin: 'https://elsewhere.example', 'access-control-request-method': 'PUT' };
  await call(list, { method: 'OPTIONS', headers: preflight }, 204);
  await call(list, sendJson('PUT', { title: 'Renamed' }), 200);
  await call(list, sendJson('PUT', { title: 'Late' }, { 'if-match': '"stale"' }), 412);
  await call(list, { method: 'PATCH' }, 405);
  await call(listPathOf(unknownId), {}, 404);

  const { todos, sse } = namedListPaths(plainId);
  const eggs = sendJson('POST', { title: 'Eggs' }, { 'idempotency-key': `"${itemKey}"` });
  const item = `${todos}/${(JSON.parse((await call(todos, eggs, 201)).body) as { id: string }).id}`;
  const { headers } = await call(`${todos}?key=${inQuery}`, {}, 200);
  await call(item, {}, 200);
  await call(item, sendJson('PUT', { title: 'Eggs', completed: true }), 200);
  await call(item, sendJson('PUT', { title: 'Milk' }, { 'if-match': '"stale"' }), 412);
  await call(todos, sendJson('POST', '{"title":'), 400);
  await call(todos, { method: 'PATCH' }, 405);
  await call(`${todos}/${MISSING_ID}`, {}, 404);
  await call(namedListPaths(unknownId).todos, {}, 404);
  await call(item, { method: 'DELETE' }, 200);

  const lastEventId = unquoted(headers.get('etag')!);
  for (const resume of [
    { path: `${sse}?lastEventId=${lastEventId}&key=${inQuery}` },
    { headers: { 'last-event-id': lastEventId } },
  ]) {
    const stream = await openStream({ fetch, paths: namedListPaths(plainId) }, resume);
    await stream.nextBlock();
    stream.close();
  }
  await call(sse, { method: 'POST' }, 405);
  await call(namedListPaths(unknownId).sse, {}, 404);

  const viewed = namedListPaths(viewId);
  await call(listPathOf(viewId), {}, 200);
  await call(viewed.todos, {}, 200);
  await call(viewed.todos, sendJson('POST', { title: 'Not mine' }), 403);
  await call(listPathOf(viewId), { method: 'DELETE' }, 403);
  const viewStream = await openStream({ fetch, paths: viewed });
  await viewStream.nextBlock();
  viewStream.close();

  await call(listPageOf(plainId), {}, 200);
  await call(listPageOf(plainId), { method: 'POST' }, 405);
  await call(listPathOf(keyedId), { method: 'DELETE', headers: { 'if-match': '"stale"' } }, 412);
  await call(listPathOf(keyedId), { method: 'DELETE' }, 204);
  // On workerd a list's id is its object's, which the runtime writes in hex.
  const ids = [keyedId, plainId, viewId, unknownId];
  const hex = ids.map((id) => Buffer.from(id, 'base64url').toString('hex'));
  const secrets = [...ids, ...hex, listKey, itemKey, ...badKeys, inQuery];
  return { keyedId, keyedCreate: keyed, plainId, unknownId, secrets };
}

/**
 * Run before the service, through NODE_OPTIONS: every read of the page after the first fails,
 * as a failing disk would, so that `GET /lists/{id}` is an unexpected error the host reports.
 */
const PAGE_READS_FAIL_AFTER_ONE = `--import=data:text/javascript,${encodeURIComponent(`
  import fs from 'node:fs';
  import { syncBuiltinESMExports } from 'node:module';
  const read = fs.promises.readFile;
  let pages = 0;
  fs.promises.readFile = (file, ...rest) =>
    String(file).endsWith('index.html') && ++pages > 1
      ? Promise.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }))
      : read(file, ...rest);
  syncBuiltinESMExports();
`)}`;

describe.each([
  { storage: 'memory', format: 'JSON lines', args: [] },
  { storage: 'SQLite', format: 'JSON lines', args: [] },
  { storage: 'memory', format: 'dev lines', args: ['dev'] },
])('the Node host, the lists in $storage, its log in $format', ({ storage, args }) => {
  let sent: Sent;
  let log = '';
  const folder = mkdtempSync(join(tmpdir(), 'todo-logs-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  beforeAll(async () => {
    const service = new ServiceProcess(args, {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${PAGE_READS_FAIL_AFTER_ONE}`,
      STORAGE_FILE: storage === 'SQLite' ? join(folder, 'todos.sqlite') : '',
    });
    try {
      const url = await service.url();
      const fetch: Fetch = (path, init) => globalThis.fetch(new URL(path, url), init);
      sent = await useEveryRoute(fetch, randomBytes(16).toString('base64url'));
      await answered(fetch, listPageOf(sent.keyedId), {}, 500);
      // Lines are held for a moment; shutting down writes them all.
      service.child.kill('SIGTERM');
      await service.exited;
    } finally {
      service.stop();
    }
    log = service.stdout + service.stderr;
  });

  it('holds no list id, no Idempotency-Key and no query', () => {
    for (const secret of sent.secrets) expect(log).not.toContain(secret);
  });

  it('holds the tag of every list a path named', () => {
    for (const id of [sent.keyedId, sent.plainId, sent.unknownId]) {
      expect(log).toContain(`/lists/${tagOf(id)}`);
    }
  });

  it('reports an unexpected error with the tag of the list its path named', () => {
    const reported = log.split('\n').filter((line) => line.includes('unexpected error'));
    expect(reported).toEqual([expect.stringContaining(`/lists/${tagOf(sent.keyedId)}`)]);
  });
});

describe('the worker and its objects on workerd', () => {
  const runtime = useWorkerd('list ids in logs');
  let sent: Sent;
  /** The requests that fail unexpectedly, each with the line its report must begin with. */
  let failures: { reqId: string; reported: string }[];

  beforeAll(async () => {
    const workerd = runtime();
    const fetch: Fetch = (path, init) => workerd.fetch(path, init);
    sent = await useEveryRoute(fetch, randomBytes(32).toString('base64url'));
    const failing = async (method: string, path: string, loggedPath: string, init = {}) => {
      const reqId = unique('fails');
      const headers = { ...(init as { headers?: object }).headers, 'x-request-id': reqId };
      await answered(fetch, path, { ...init, method, headers }, 500);
      return { reqId, reported: `unexpected error: ${method} ${loggedPath} ${reqId}` };
    };
    // Tables the objects refuse: each request that reads them is an unexpected error.
    await workerd.olderFormat(sent.plainId);
    await workerd.olderFormat(sent.keyedId);
    const { todos } = namedListPaths(sent.plainId);
    failures = [
      await failing('GET', todos, namedListPaths(tagOf(sent.plainId)).todos),
      await failing('GET', listPathOf(sent.keyedId), listPathOf(tagOf(sent.keyedId))),
      // The worker's own report: the retry reaches the list's object by RPC, which fails.
      await failing('POST', LISTS_PATH, LISTS_PATH, sent.keyedCreate),
    ];
    // The runtime's log comes through Miniflare a little after the answers.
    await vi.waitFor(() => {
      for (const { reqId } of failures) expect(workerd.output).toContain(reqId);
    });
  });

  it('logs no list id, no Idempotency-Key and no query', () => {
    for (const secret of sent.secrets) expect(runtime().output).not.toContain(secret);
  });

  it('reports each unexpected error with its request, the list id in its path a tag', () => {
    const lines = runtime().output.split('\n');
    for (const { reqId, reported } of failures) {
      expect(lines.find((line) => line.includes(reqId))).toContain(reported);
    }
  });
});
