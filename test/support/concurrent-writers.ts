import { LISTS_PATH, namedListPaths } from '../../src/model/resources.ts';
import { sendJson, type TodoJson } from './api.ts';
import type { TestHost } from './hosts.ts';

/**
 * `host` with `writers` clients changing an item each of a named list of their own, without
 * pause, from the start of every service to its close, beside the test's own requests: where
 * the lists are kept in group commits, the test's changes share their commits with theirs. The
 * list holds a place under `limits.maxLists`, so the test's bound is raised by one. Should any
 * of their changes not be answered 200, closing the service fails the test.
 */
export function withConcurrentWriters(host: TestHost, writers = 4): TestHost {
  return {
    ...host,
    name: `${host.name}, beside ${writers} writers of another list`,
    async start(options = {}) {
      const { maxLists } = options;
      const service = await host.start({
        ...options,
        ...(maxLists !== undefined && { maxLists: maxLists + 1 }),
      });
      const { id } = (await (await service.fetch(LISTS_PATH, { method: 'POST' })).json()) as {
        id: string;
      };
      const { todos } = namedListPaths(id);
      const write = async (path: string, init: RequestInit, expected: number) => {
        const response = await service.fetch(path, init);
        const body = await response.text();
        if (response.status !== expected) {
          throw new Error(`A writer beside the test was answered ${response.status}: ${body}`);
        }
        return body;
      };
      let stopped = false;
      const loops = Array.from({ length: writers }, async (_, writer) => {
        const created = await write(todos, sendJson('POST', { title: `w${writer}` }), 201);
        const item = `${todos}/${(JSON.parse(created) as TodoJson).id}`;
        for (let round = 0; !stopped; round += 1) {
          const fields = { title: `w${writer} ${round % 1000}`, completed: round % 2 === 0 };
          await write(item, sendJson('PUT', fields), 200);
        }
      });
      return {
        ...service,
        async close() {
          stopped = true;
          const ended = await Promise.allSettled(loops);
          await service.close();
          for (const end of ended) if (end.status === 'rejected') throw end.reason;
        },
      };
    },
  };
}
