import { describe, expect, it, onTestFinished } from 'vitest';
import type { ListInfo } from '../../src/model/resources.ts';
import { LISTS_PATH } from '../../src/model/resources.ts';
import type { ListStores, StoreOptions } from '../../src/storage/kept-lists.ts';
import { ListStore } from '../../src/store/list-store.ts';
import { expectProblem, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { answerOf, keyed } from './idempotency.ts';

/**
 * Lists whose every change, and every new list, is made durable only when the test says so,
 * once it has called `hold`: so a test can send a retry while the first create waits.
 */
function heldStores() {
  const waiting: (() => void)[] = [];
  let holding = false;
  const later = (finish: () => void) => (holding ? waiting.push(finish) : finish());
  const storeOf = (options: StoreOptions, info?: ListInfo) =>
    new ListStore({ ...options, info, persist: (_c, _s, done) => later(() => done()) });
  const stores: ListStores = {
    openDefault: (options) => storeOf(options),
    openKept: () => [],
    create: (info, options) =>
      new Promise((resolve) => later(() => resolve(storeOf(options, info)))),
    remove: async () => {},
    keptKeys: () => [],
  };
  const release = () => {
    holding = false;
    for (const finish of waiting.splice(0)) finish();
  };
  return {
    stores,
    release,
    /** Holds back what is made from now on, until `release` or the end of the test. */
    hold() {
      holding = true;
      onTestFinished(release);
    },
    /** Resolves once something waits to be made durable. */
    async waited(): Promise<void> {
      while (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    },
  };
}

/** docs/api.md, Idempotency-Key: a retry while the first create is not yet durable. */
export function idempotencyInFlightSuite(host: TestHost) {
  describe('Idempotency-Key while the first create is not yet durable', () => {
    const held = heldStores();
    const api = useService(host, { stores: held.stores });

    it('answers a retry of an item create 409, then as the first once that is durable', async () => {
      held.hold();
      const first = api().fetch(api().paths.todos, keyed({ title: 'Buy milk' }));
      await held.waited();
      const conflict = await api().fetch(api().paths.todos, keyed({ title: 'Buy milk' }));
      await expectProblem(conflict, 409);
      held.release();
      const answered = await answerOf(await first);
      const retry = await api().fetch(api().paths.todos, keyed({ title: 'Buy milk' }));
      expect([answered.status, await answerOf(retry)]).toEqual([201, answered]);
    });

    it('makes nothing of the retry answered 409', async () => {
      held.hold();
      const first = api().fetch(api().paths.todos, keyed({ title: 'Buy milk' }));
      await held.waited();
      await api().fetch(api().paths.todos, keyed({ title: 'Buy milk' }));
      held.release();
      expect((await listState(api())).todos).toEqual([await (await first).json()]);
    });

    if (!host.onNamedList) {
      it('answers a retry of a list create 409, then as the first once it is made', async () => {
        held.hold();
        const first = api().fetch(LISTS_PATH, keyed({ title: 'Groceries' }));
        await held.waited();
        await expectProblem(await api().fetch(LISTS_PATH, keyed({ title: 'Groceries' })), 409);
        held.release();
        const answered = await answerOf(await first);
        const retry = await api().fetch(LISTS_PATH, keyed({ title: 'Groceries' }));
        expect([answered.status, await answerOf(retry)]).toEqual([201, answered]);
      });
    }
  });
}
