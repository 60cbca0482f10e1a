import { describe, expect, it } from 'vitest';
import { expectProblem, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { bodyOfSize, streamedBody } from './body-checks.ts';

/**
 * Far from the defaults, so a limit that ignored its setting would be seen to. "padded", the
 * title `bodyOfSize` sends, fits the title limit.
 */
const MAX_BODY_BYTES = 512;
const MAX_TITLE_LENGTH = 6;
/** One code point, two UTF-16 units, four UTF-8 bytes. */
const CAT = '🐈';

/**
 * docs/api.md, Request bodies: `limits.maxBodyBytes` and `limits.maxTitleLength` as a
 * deployment sets them, each tested on both sides of its edge.
 */
export function configuredLimitsSuite(host: TestHost) {
  describe('limits set in the configuration', () => {
    const api = useService(host, {
      limits: { maxBodyBytes: MAX_BODY_BYTES, maxTitleLength: MAX_TITLE_LENGTH },
    });

    it('accepts a body of exactly limits.maxBodyBytes', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', bodyOfSize(MAX_BODY_BYTES)),
      );
      expect(response.status).toBe(201);
    });

    it('refuses a body one byte over limits.maxBodyBytes with 413, changing nothing', async () => {
      const before = await listState(api());
      const body = bodyOfSize(MAX_BODY_BYTES + 1);
      await expectProblem(await api().fetch(api().paths.todos, sendJson('POST', body)), 413);
      expect(await listState(api())).toEqual(before);
    });

    it('accepts a chunked body of exactly limits.maxBodyBytes', async () => {
      const response = await api().fetch(
        api().paths.todos,
        streamedBody(bodyOfSize(MAX_BODY_BYTES), 100),
      );
      expect(response.status).toBe(201);
    });

    it('refuses a chunked body one byte over limits.maxBodyBytes with 413', async () => {
      const body = streamedBody(bodyOfSize(MAX_BODY_BYTES + 1), 100);
      await expectProblem(await api().fetch(api().paths.todos, body), 413);
    });

    it('counts the body in bytes, not characters', async () => {
      // Fewer characters than the limit, one byte more than it.
      const title = 'é'.repeat(MAX_TITLE_LENGTH);
      const core = JSON.stringify({ title });
      const body = core.slice(0, -1) + ' '.repeat(MAX_BODY_BYTES + 1 - byteLength(core)) + '}';
      expect([body.length < MAX_BODY_BYTES, byteLength(body)]).toEqual([true, MAX_BODY_BYTES + 1]);
      await expectProblem(await api().fetch(api().paths.todos, sendJson('POST', body)), 413);
    });

    it('accepts a title of exactly limits.maxTitleLength code points, twice as many UTF-16 units', async () => {
      const title = CAT.repeat(MAX_TITLE_LENGTH);
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title }));
      expect([response.status, ((await response.json()) as { title: string }).title]).toEqual([
        201,
        title,
      ]);
    });

    it('refuses a title one code point over limits.maxTitleLength with 400 naming /title', async () => {
      const before = await listState(api());
      const title = CAT.repeat(MAX_TITLE_LENGTH) + 'x';
      const problem = await expectProblem(
        await api().fetch(api().paths.todos, sendJson('POST', { title })),
        400,
      );
      expect(problem.errors?.map((error) => error.pointer)).toEqual(['/title']);
      expect(await listState(api())).toEqual(before);
    });
  });
}

const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;
