import { resolve } from 'node:path';
import { openSqliteTodoStore } from '../../todos/sqlite-store.ts';
import type { TodoStore } from '../../todos/store.ts';
import type { Logger } from './logger.ts';
import type { NodeConfig } from './node-config.ts';
import { openSqliteFile } from './sqlite-file.ts';

export interface FileStore {
  readonly file: string;
  readonly store: TodoStore;
  close(): void;
}

/**
 * The list kept in `storage.file` (relative to the working folder), or undefined when the
 * list lives in memory only. Throws a `StorageFileError` when the file cannot be used.
 */
export function openFileStore(config: NodeConfig, logger: Logger): FileStore | undefined {
  if (config.storage.file === null) return undefined;
  const file = resolve(config.storage.file);
  const database = openSqliteFile(file);
  const store = openSqliteTodoStore(database, {
    keepChanges: config.sse.replayEvents,
    reportError: (error) => logger.error({ err: error }, 'unexpected error'),
  });
  return { file, store, close: () => database.close() };
}
