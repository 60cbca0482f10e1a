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
   * Writes, in the default list's storage, the tables of the service from before there were
   * named lists, holding `ONE_LIST`, in place of today's, and evicts the object.
   */
  oneListSchema: '/__test/one-list-schema',
};

/** The reason `forget` aborts the object with: the runtime logs it, and it is expected. */
export const FORGET_REASON = 'forgotten by the test host';

/** What `oneListSchema` writes: a run, its sequence, and two items in their order. */
export const ONE_LIST = {
  run: 'abcd1234',
  sequence: 2,
  items: [
    { id: '22222222-2222-4222-8222-222222222222', title: 'b', completed: true },
    { id: '11111111-1111-4111-8111-111111111111', title: 'a', completed: false },
  ],
};
