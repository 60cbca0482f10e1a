import { describe, expect, it } from 'vitest';
import { createLogger, logRequest } from '../../src/hosts/node/logger.ts';

/** A prod (JSON) logger at `level` whose lines are kept, as written. */
function jsonLogger(level: 'debug' | 'info' | 'warn') {
  const written: string[] = [];
  const logger = createLogger({ level, format: 'json' }, { write: (line) => written.push(line) });
  return { logger, written };
}

/** `line` with its time, which differs between two lines made apart, set to 0. */
const timeless = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe("the prod log's request line", () => {
  it.each([
    ['an API request at info', '/api/lists/a%20b/todos', '?secret=1', 'info'],
    ['a health check at debug', '/healthz', '', 'debug'],
  ] as const)(
    'is the line pino writes for the same fields, byte for byte: %s',
    (_, path, query, level) => {
      const { logger, written } = jsonLogger('debug');
      const reqId = 'a "q" \\ é';
      const answer = new Response(null, { status: 201 });
      const request = new Request(`http://localhost${path}${query}`, { method: 'POST' });
      logRequest(logger, request, reqId, answer, performance.now());
      // The time it took is the one field the test cannot know beforehand.
      const { ms } = JSON.parse(written[0]!) as { ms: number };
      logger[level]({ reqId, method: 'POST', path, status: 201, ms }, 'request');
      expect(written).toHaveLength(2);
      expect(timeless(written[0]!)).toBe(timeless(written[1]!));
    },
  );

  it('is not written below the logger level', () => {
    const { logger, written } = jsonLogger('warn');
    const answer = new Response(null, { status: 200 });
    const request = new Request('http://localhost/api/todos');
    logRequest(logger, request, 'r-1', answer, performance.now());
    expect(written).toEqual([]);
  });
});
