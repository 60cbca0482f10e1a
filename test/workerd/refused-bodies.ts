import { describe, expect, it } from 'vitest';
import { createTodo, MISSING_ID, sendJson, snapshot } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { streamedBody } from '../conformance/body-checks.ts';

/** Rounds of each refusal: the failure it guards against came in some rounds, not all. */
const ROUNDS = 20;
/** A GET that waits longer than this hung: the runtime lost the connection behind it. */
const HANG_MS = 8000;
/** Past the 1 MiB that whoever answers reads of a refused body before it answers. */
const HUGE_BYTES = 3_000_000;

/**
 * Error answers to requests with a body, each followed by a GET. On workerd an object that
 * answered before the body was read broke the connection from the worker, so the next request
 * hung or got a 503, and the runtime logged "Network connection lost".
 */
export function refusedBodiesSuite(host: TestHost): void {
  describe(`${host.name}: refused requests with a body, again and again`, () => {
    const api = useService(host);

    /**
     * Sends `request` ROUNDS times, each followed by a GET. With `mayCut`, a refusal may also
     * end with the connection closed while the client still sends ("cut"): the service reads a
     * refused body only up to 1 MiB.
     */
    async function expectRefusedThenServed(
      request: () => [string, RequestInit],
      status: number,
      mayCut = false,
    ) {
      const statuses = { refused: [] as (number | 'cut')[], listed: [] as number[] };
      for (let round = 0; round < ROUNDS; round += 1) {
        try {
          const refused = await api().fetch(...request());
          await refused.body?.cancel();
          statuses.refused.push(refused.status);
        } catch (error) {
          if (!mayCut) throw error;
          statuses.refused.push('cut');
        }
        const listed = await api().fetch('/api/todos', { signal: AbortSignal.timeout(HANG_MS) });
        await listed.body?.cancel();
        statuses.listed.push(listed.status);
      }
      const unexpected = statuses.refused.filter((got) => got !== status && got !== 'cut');
      expect({ unexpected, listed: statuses.listed }).toEqual({
        unexpected: [],
        listed: Array(ROUNDS).fill(200),
      });
      if (!mayCut) expect(statuses.refused).toEqual(Array(ROUNDS).fill(status));
    }

    it('answers a body of the wrong media type with 415, and the next request with 200', async () => {
      const request = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' };
      await expectRefusedThenServed(() => ['/api/todos', request], 415);
    });

    it('answers a PUT to an unknown id with 404, and the next request with 200', async () => {
      const put = sendJson('PUT', { title: 'x', completed: false });
      await expectRefusedThenServed(() => [`/api/todos/${MISSING_ID}`, put], 404);
    });

    it('answers a stale If-Match with 412, and the next request with 200', async () => {
      const todo = await createTodo(api());
      const put = sendJson('PUT', { title: 'x', completed: false }, { 'if-match': '"stale"' });
      await expectRefusedThenServed(() => [`/api/todos/${todo.id}`, put], 412);
    });

    it('answers a chunked body over the limit with 413, and the next request with 200', async () => {
      await expectRefusedThenServed(() => ['/api/todos', streamedBody('a'.repeat(20_000))], 413);
    });

    it('refuses a chunked body of 3 MB with 413 or a closed connection, and serves the next request', async () => {
      const huge = 'a'.repeat(HUGE_BYTES);
      await expectRefusedThenServed(() => ['/api/todos', streamedBody(huge, 64 * 1024)], 413, true);
    });

    it('refuses 3 MB sent to /hello with 405 or a closed connection, and serves the next request', async () => {
      const huge = 'a'.repeat(HUGE_BYTES);
      await expectRefusedThenServed(() => ['/hello', streamedBody(huge, 64 * 1024)], 405, true);
    });

    it('leaves the list as it was', async () => {
      const before = await snapshot(api());
      const request = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' };
      await expectRefusedThenServed(() => ['/api/todos', request], 415);
      expect(await snapshot(api())).toEqual(before);
    });
  });
}
