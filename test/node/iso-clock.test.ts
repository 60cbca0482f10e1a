import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoClock } from '../../src/hosts/node/logger.ts';

describe("the log lines' clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the time as toISOString does, across seconds and milliseconds', () => {
    vi.useFakeTimers();
    const now = isoClock();
    for (const instant of [
      Date.UTC(2026, 10, 22, 13, 59, 59, 7),
      Date.UTC(2026, 10, 22, 13, 59, 59, 999),
      Date.UTC(2026, 10, 22, 14, 0, 0, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59, 40),
    ]) {
      vi.setSystemTime(instant);
      expect(now()).toBe(new Date(instant).toISOString());
    }
  });
});
