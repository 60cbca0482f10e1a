import type { Todo } from '../model/resources.ts';
import { LAST_SEEN, result, transaction } from './page-database.ts';

/** A list as this browser last saw it, with the version it was at (its last event's id). */
export interface SeenList {
  readonly todos: readonly Todo[];
  readonly version: string;
}

interface SeenRecord extends SeenList {
  readonly list: string;
}

/**
 * The last list seen, kept in IndexedDB per list, so that a page opened without a connection
 * shows the list as it was. `list` is the list's id, `''` for the default list.
 */
export class LastSeen {
  constructor(private readonly list: string) {}

  async read(): Promise<SeenList | undefined> {
    try {
      const record = (await transaction(LAST_SEEN, 'readonly', (running) =>
        result(running.objectStore(LAST_SEEN).get(this.list)),
      )) as SeenRecord | undefined;
      return record;
    } catch {
      // Without storage (a private window may refuse it) there is nothing to show.
      return undefined;
    }
  }

  write(seen: SeenList): void {
    const record: SeenRecord = { list: this.list, todos: seen.todos, version: seen.version };
    transaction(LAST_SEEN, 'readwrite', (running) =>
      result(running.objectStore(LAST_SEEN).put(record)),
    ).catch(() => {});
  }
}
