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
    ['an API request at info', 'http://localhost/api/lists/a%20b/todos?secret=1', 'info'],
    ['a health check at debug', 'http://localhost/healthz', 'debug'],
  ] as const)('is the line pino writes for the same fields, byte for byte: %s', (_, url, level) => {
    const { logger, written } = jsonLogger('debug');
    const answer = new Response(null, { status: 201, headers: { 'x-request-id': 'a "q" \\ é' } });
    logRequest(logger, new Request(url, { method: 'POST' }), answer, performance.now());
    const { reqId, method, path, status, ms } = JSON.parse(written[0]!) as Record<string, unknown>;
    logger[level]({ reqId, method, path, status, ms }, 'request');
    expect(written).toHaveLength(2);
    expect(timeless(written[0]!)).toBe(timeless(written[1]!));
  });

  it('is not written below the logger level', () => {
    const { logger, written } = jsonLogger('warn');
    const answer = new Response(null, { status: 200, headers: { 'x-request-id': 'r-1' } });
    logRequest(logger, new Request('http://localhost/api/todos'), answer, performance.now());
    expect(written).toEqual([]);
  });
});
