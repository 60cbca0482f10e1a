import { resolve } from 'node:path';
import type { ListStores } from '../../lists/list-stores.ts';
import { sqliteListStores } from '../../lists/sqlite-list-stores.ts';
import { committerOn, GroupCommit } from '../../todos/group-commit.ts';
import type { NodeConfig } from './node-config.ts';
import { openSqliteFile } from './sqlite-file.ts';

export interface StorageFile {
  readonly file: string;
  readonly stores: ListStores;
  /** The writes of every list, committed in groups; `commits.counts` tells how. */
  readonly commits: GroupCommit;
  /** Commits the writes still waiting, then closes the file. */
  close(): Promise<void>;
}

/**
 * Every list kept in `storage.file` (relative to the working folder), or undefined when the
 * lists live in memory only. Throws a `StorageFileError` when the file cannot be used.
 */
export function openStorageFile(config: NodeConfig): StorageFile | undefined {
  if (config.storage.file === null) return undefined;
  return openStorageAt(resolve(config.storage.file));
}

/**
 * The lists kept in the SQLite file `file`, their writes made in group commits, each at the end
 * of a turn of the event loop (`setImmediate`), in this thread.
 */
export function openStorageAt(file: string): StorageFile {
  const database = openSqliteFile(file);
  const commits = new GroupCommit(committerOn(database), { schedule: setImmediate });
  return {
    file,
    stores: sqliteListStores(database, commits),
    commits,
    async close() {
      await commits.close();
      database.close();
    },
  };
}
