import { describe, expect, it } from 'vitest';
import type { ListStores } from '../../src/storage/kept-lists.ts';
import { memoryListStores } from '../../src/lists/local-lists.ts';
import { LISTS_PATH, listPathOf } from '../../src/model/resources.ts';
import { ListStore } from '../../src/store/list-store.ts';
import { expectProblem, sendJson } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { createList, readList } from '../support/lists.ts';
import { expectNoLeak } from '../support/leaks.ts';

const failure = () => new Error('disk full at /srv/secret/lists.db');

/**
 * Storage that fails as a full disk makes it: while `failing` is set, making a list, renaming
 * one and deleting one all throw.
 */
function failingStores(): { stores: ListStores; control: { failing: boolean } } {
  const control = { failing: false };
  class FailingRenames extends ListStore {
    override async rename(title: string) {
      if (control.failing) throw failure();
      return super.rename(title);
    }
  }
  const stores: ListStores = {
    ...memoryListStores,
    async create(info, options) {
      if (control.failing) throw failure();
      return new FailingRenames({ ...options, info });
    },
    async remove() {
      if (control.failing) throw failure();
    },
  };
  return { stores, control };
}

/**
 * docs/api.md, Errors, for the list routes: storage that fails. It hands the handler storage
 * of the test's own, so it runs only on hosts that can (`TestHost.injects`).
 */
export function listFailuresSuite(host: TestHost) {
  describe('lists whose storage fails', () => {
    const { stores, control } = failingStores();
    const api = useService(host, { stores, reportError: () => {} });

    it('answers a create it could not store with a generic 500, and makes no list', async () => {
      control.failing = true;
      const before = await api().countLists();
      const response = await api().fetch(LISTS_PATH, sendJson('POST', { title: 'a' }));
      control.failing = false;
      expectNoLeak((await expectProblem(response, 500)).detail);
      expect(await api().countLists()).toBe(before);
    });

    it('answers a rename it could not store with a generic 500, and keeps the title', async () => {
      const { id } = await createList(api(), 'Kept');
      control.failing = true;
      const response = await api().fetch(listPathOf(id), sendJson('PUT', { title: 'Lost' }));
      control.failing = false;
      await expectProblem(response, 500);
      expect((await readList(api(), id)).list.title).toBe('Kept');
    });

    it('answers a delete it could not store with a generic 500, and keeps the list', async () => {
      const { id } = await createList(api(), 'Kept');
      control.failing = true;
      const response = await api().fetch(listPathOf(id), { method: 'DELETE' });
      control.failing = false;
      await expectProblem(response, 500);
      expect((await readList(api(), id)).list.title).toBe('Kept');
    });
  });
}
