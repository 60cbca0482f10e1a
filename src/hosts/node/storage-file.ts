import { resolve } from 'node:path';
import type { ListStores } from '../../lists/list-stores.ts';
import { sqliteListStores } from '../../lists/sqlite-list-stores.ts';
import type { NodeConfig } from './node-config.ts';
import { openSqliteFile } from './sqlite-file.ts';

export interface StorageFile {
  readonly file: string;
  readonly stores: ListStores;
  close(): void;
}

/**
 * Every list kept in `storage.file` (relative to the working folder), or undefined when the
 * lists live in memory only. Throws a `StorageFileError` when the file cannot be used.
 */
export function openStorageFile(config: NodeConfig): StorageFile | undefined {
  if (config.storage.file === null) return undefined;
  const file = resolve(config.storage.file);
  const database = openSqliteFile(file);
  return { file, stores: sqliteListStores(database), close: () => database.close() };
}
