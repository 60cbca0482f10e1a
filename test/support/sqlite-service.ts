import { onTestFinished } from 'vitest';
import { createApp, DEFAULT_MAX_LISTS } from '../../src/app.ts';
import { DEFAULT_APP_CONFIG } from '../../src/config.ts';
import { openSqliteFile } from '../../src/hosts/node/storage-file.ts';
import { DEFAULT_LIST_PATHS } from '../../src/model/resources.ts';
import { localLists } from '../../src/lists/local-lists.ts';
import { sqliteListStores } from '../../src/storage/kept-lists.ts';
import { committerOn, GroupCommit, type Committer } from '../../src/storage/group-commit.ts';
import type { SqlDatabase } from '../../src/storage/sql.ts';
import type { WriteDone } from '../../src/storage/sql.ts';
import type { SqlStatement } from '../../src/storage/sql.ts';
import { inProcessFetch } from './hosts.ts';
import { ViewIds } from '../../src/lists/list-id.ts';
import { viewSecretOf } from '../../src/hosts/node/storage-file.ts';

/** The SQLite file `file`, closed after the test. */
export function opened(file: string) {
  const db = openSqliteFile(file);
  onTestFinished(() => db.close());
  return db;
}

export interface SqliteServiceOptions {
  /** `sse.replayEvents`. */
  readonly replayEvents?: number;
  /** Where unexpected errors go. */
  readonly reportError?: (error: unknown) => void;
  /** Where the batches are committed; by default in `db`, at once. */
  readonly committer?: Committer;
  /** `limits.maxLists`. */
  readonly maxLists?: number;
  /** `limits.maxItems`, which is also the most item keys a list keeps. */
  readonly maxItems?: number;
}

/**
 * The handler over the lists kept in `db`, their writes in group commits as the Node host
 * makes them, as a test service.
 */
export function sqliteService(db: SqlDatabase, options: SqliteServiceOptions = {}) {
  const replayEvents = options.replayEvents ?? DEFAULT_APP_CONFIG.sse.replayEvents;
  const limits = {
    ...DEFAULT_APP_CONFIG.limits,
    ...(options.maxItems && { maxItems: options.maxItems }),
  };
  const config = { limits, sse: { ...DEFAULT_APP_CONFIG.sse, replayEvents } };
  const commits = new GroupCommit(options.committer ?? committerOn(db), setImmediate);
  const app = createApp({
    config,
    lists: localLists({
      stores: sqliteListStores(db, commits),
      maxLists: options.maxLists ?? DEFAULT_MAX_LISTS,
    }),
    // The secret of the view ids kept with the lists, as the Node host keeps it.
    viewIds: new ViewIds(viewSecretOf(db)),
    host: { reportError: options.reportError ?? (() => {}) },
  });
  onTestFinished(() => app.close());
  return {
    app,
    paths: DEFAULT_LIST_PATHS,
    fetch: inProcessFetch(app),
  };
}

/**
 * Commits into `db` that wait for the test: `asked` resolves once a batch is ready, and
 * `commit` or `fail` settles it.
 */
function heldCommits(db: SqlDatabase) {
  const direct = committerOn(db);
  let held: { statements: readonly SqlStatement[]; done: WriteDone } | undefined;
  let ready: (() => void) | undefined;
  const committer: Committer = {
    commit(statements, done) {
      held = { statements, done };
      ready?.();
    },
  };
  const take = () => {
    if (held === undefined) throw new Error('No batch waits for its commit.');
    const batch = held;
    held = undefined;
    ready = undefined;
    return batch;
  };
  return {
    committer,
    asked: () => new Promise<void>((resolve) => (held ? resolve() : (ready = resolve))),
    commit() {
      const { statements, done } = take();
      direct.commit(statements, done);
    },
    fail(error: Error) {
      take().done(error);
    },
  };
}

/** A service over the SQLite file `file` whose commits wait for the test (`heldCommits`). */
export function heldService(file: string) {
  const db = opened(file);
  const held = heldCommits(db);
  return { held, service: sqliteService(db, { committer: held.committer }) };
}

/** `db`, whose writes fail while `failing` is set, as a full disk makes them. */
export function failingWrites(db: SqlDatabase) {
  const control = { failing: false };
  const wrapped: SqlDatabase = {
    all: (sql, ...params) => db.all(sql, ...params),
    run(sql, ...params) {
      if (control.failing) throw new Error('database or disk is full');
      db.run(sql, ...params);
    },
    transaction: (work) => db.transaction(work),
  };
  return { db: wrapped, control };
}
