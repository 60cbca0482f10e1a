/**
 * Paths only the test entry answers; the worker users deploy has none of them. Each acts on the
 * default list's object, or with `?list=<id>` on that named list's.
 */
export const TEST_PATHS = {
  forget: '/__test/forget',
  evict: '/__test/evict',
  streamStats: '/__test/stream-stats',
  /**
   * What keeps the object in memory: its requests in flight and its WebSockets, with the id of
   * the instance that answers, new after each eviction or hibernation.
   */
  objectState: '/__test/object-state',
  /** The id of the object that holds the list, as the object itself gives it. */
  objectId: '/__test/object-id',
  /** How many times the worker has addressed an object since the last call. */
  objectsAddressed: '/__test/objects-addressed',
  /**
   * Writes, in the default list's storage, a table of a format from before formats were
   * numbered, in place of today's, and evicts the object.
   */
  olderFormat: '/__test/older-format',
  /**
   * Turns the list's storage back into format 1, which kept an item's key only beside its kept
   * change, and evicts the object.
   */
  formatOne: '/__test/format-one',
  /**
   * Makes the object's next write to its storage (a transaction, or wiping it all) its last
   * act: once the write is durable, the object is reset, as by a crash.
   */
  crashAfterNextWrite: '/__test/crash-after-next-write',
  /** From now on, each list creation the worker counts waits until `releaseListCreations`. */
  holdListCreations: '/__test/hold-list-creations',
  releaseListCreations: '/__test/release-list-creations',
  /** How many list creations wait to be counted. */
  listCreationsWaiting: '/__test/list-creations-waiting',
  /**
   * Adds `?count=` items titled `?title=` to the list at once, as that many creates would, with
   * none of their requests: a large list in a moment.
   */
  seed: '/__test/seed',
};

/** The reason `forget` aborts the object with: the runtime logs it, and it is expected. */
export const FORGET_REASON = 'forgotten by the test host';

/** Turns today's tables back into format 1's, which kept an item's key beside its kept change. */
export const TO_FORMAT_ONE = [
  `CREATE TABLE list_change_keys (
     list TEXT NOT NULL, sequence INTEGER NOT NULL, idempotency_key TEXT NOT NULL,
     PRIMARY KEY (list, sequence)) WITHOUT ROWID`,
  'INSERT INTO list_change_keys SELECT list, sequence, idempotency_key FROM item_keys',
  'DROP TABLE item_keys',
  'UPDATE storage_format SET version = 1',
];
