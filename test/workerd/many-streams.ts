import { describe, expect, it, onTestFinished } from 'vitest';
import type { TodoJson } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { firstEvent, openStream } from '../support/sse.ts';
import { TEST_PATHS } from './test-paths.ts';

const STREAMS = 200;
/** The most items a list holds (limits.maxItems): its snapshot is about 1 MB. */
const ITEMS = 10_000;

/**
 * Many streams of a large list, opened at once: each snapshot goes out in pieces the object
 * sends as the worker's client takes them, with no copy of it per stream.
 */
export function manyStreamsSuite(host: TestHost): void {
  describe(`${host.name}: ${STREAMS} streams of a list of ${ITEMS} items`, () => {
    const api = useService(host);

    it('opens every stream with the whole list and sends each the next change', async () => {
      const seed = new URLSearchParams({ count: String(ITEMS), title: 'an item of a long list' });
      // A test path is the test entry's, not the service's: its answer has no request id.
      const seeded = await api().fetchFrom('127.0.0.1', `${TEST_PATHS.seed}?${seed}`, {
        method: 'POST',
      });
      expect(seeded.status).toBe(204);
      const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(api())));
      onTestFinished(() => streams.forEach((stream) => stream.close()));
      const snapshots = await Promise.all(streams.map(firstEvent));
      const first = (snapshots[0]!.data as TodoJson[])[0]!;
      const deleted = await api().fetch(`${api().paths.todos}/${first.id}`, { method: 'DELETE' });
      const next = await Promise.all(streams.map((stream) => stream.nextEvent()));
      expect({
        deleted: deleted.status,
        snapshots: new Set(snapshots.map(({ data }) => (data as TodoJson[]).length)),
        next: new Set(next.map(({ event, data }) => `${event} ${(data as TodoJson).id}`)),
      }).toEqual({
        deleted: 200,
        snapshots: new Set([ITEMS]),
        next: new Set([`deleted ${first.id}`]),
      });
    });
  });
}
