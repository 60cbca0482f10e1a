import type * as NodeSqlite from 'node:sqlite';

/** How Node 22 names `node:sqlite` in the ExperimentalWarning it prints when the module loads. */
const EXPERIMENTAL_SQLITE = /^SQLite is an experimental feature/;

/**
 * `node:sqlite`, loaded on first use, so a service that keeps its list in memory never loads
 * it. Node 22 prints an ExperimentalWarning to stderr when it does, outside the JSON log; the
 * module is stable enough for what the store uses (Node 24 and 26 no longer warn), so that one
 * warning is dropped, and every other warning still goes out as Node prints it.
 */
export function nodeSqlite(): typeof NodeSqlite {
  return withoutWarning(EXPERIMENTAL_SQLITE, () => process.getBuiltinModule('node:sqlite'));
}

/** Runs `work`, dropping the process warnings it emits whose message matches `message`. */
export function withoutWarning<T>(message: RegExp, work: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (message.test(text)) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  try {
    return work();
  } finally {
    process.emitWarning = emitWarning;
  }
}
