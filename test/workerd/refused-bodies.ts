import { describe, expect, it } from 'vitest';
import { createTodo, MISSING_ID, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { streamedBody } from '../conformance/body-checks.ts';

/** Rounds of each refusal: the failure it guards against came in some rounds, not all. */
const ROUNDS = 20;
/** A GET that waits longer than this hung: the runtime lost the connection behind it. */
const HANG_MS = 8000;
/** Far past what the handler reads (limits.maxBodyBytes), well within what is drained. */
const HUGE_BYTES = 3_000_000;

/**
 * Error answers to requests with a body, each followed by a GET. On workerd an object that
 * answered before the body was read broke the connection from the worker, so the next request
 * hung or got a 503, and the runtime logged "Network connection lost".
 */
export function refusedBodiesSuite(host: TestHost, rounds = ROUNDS): void {
  describe(`${host.name}: refused requests with a body, again and again`, () => {
    const api = useService(host);

    /** Sends `request` ROUNDS times, each followed by a GET: each gets its answer. */
    async function expectRefusedThenServed(request: () => [string, RequestInit], status: number) {
      const statuses = { refused: [] as number[], listed: [] as number[] };
      for (let round = 0; round < rounds; round += 1) {
        const refused = await api().fetch(...request());
        await refused.body?.cancel();
        statuses.refused.push(refused.status);
        const listed = await api().fetch('/api/todos', { signal: AbortSignal.timeout(HANG_MS) });
        await listed.body?.cancel();
        statuses.listed.push(listed.status);
      }
      expect(statuses).toEqual({
        refused: Array(rounds).fill(status),
        listed: Array(rounds).fill(200),
      });
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

    it('refuses a chunked body of 3 MB with 413, and serves the next request', async () => {
      const huge = 'a'.repeat(HUGE_BYTES);
      await expectRefusedThenServed(() => ['/api/todos', streamedBody(huge, 64 * 1024)], 413);
    });

    it('refuses 3 MB sent to /hello with 405, and serves the next request', async () => {
      const huge = 'a'.repeat(HUGE_BYTES);
      await expectRefusedThenServed(() => ['/hello', streamedBody(huge, 64 * 1024)], 405);
    });

    it('leaves the list as it was', async () => {
      const before = await listState(api());
      const request = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' };
      await expectRefusedThenServed(() => ['/api/todos', request], 415);
      expect(await listState(api())).toEqual(before);
    });
  });
}
