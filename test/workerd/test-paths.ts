/** Paths only the test entry answers; the worker users deploy has none of them. */
export const TEST_PATHS = {
  forget: '/__test/forget',
  evict: '/__test/evict',
  streamStats: '/__test/stream-stats',
};

/** The reason `forget` aborts the object with: the runtime logs it, and it is expected. */
export const FORGET_REASON = 'forgotten by the test host';
