/**
 * Paths only the test entry answers; the worker users deploy has none of them. Each acts on the
 * default list's object, or with `?list=<id>` on that named list's.
 */
export const TEST_PATHS = {
  forget: '/__test/forget',
  evict: '/__test/evict',
  streamStats: '/__test/stream-stats',
  /** The id of the object that holds the list, as the object itself gives it. */
  objectId: '/__test/object-id',
  /** How many times the worker has addressed an object since the last call. */
  objectsAddressed: '/__test/objects-addressed',
};

/** The reason `forget` aborts the object with: the runtime logs it, and it is expected. */
export const FORGET_REASON = 'forgotten by the test host';
