import { expect } from 'vitest';
import { listPathOf } from '../../src/model/resources.ts';
import type { TestService } from '../support/hosts.ts';
import { knownOrNew } from './etags.ts';
import type { ListModel } from './list-model.ts';
import type { ListsModel } from './lists-model.ts';
import { pathsOf } from './wire.ts';

/**
 * Whether every list the model knows is as the model says: each list there is holds exactly
 * its items, in order, under the ETag the model knows (the one it had if nothing changed, the
 * change's own after a create, update or rename, a new one after a delete, whose answer does
 * not tell it), and a named one has its title under the title's ETag; a deleted list is 404
 * on both. All of them after every command, so a command on one list that reaches another
 * fails too.
 */
export async function expectListsAsModel(
  service: TestService,
  lists: ListsModel,
  after: string,
): Promise<void> {
  const [actual, wanted] = [{} as Record<string, unknown>, {} as Record<string, unknown>];
  const learnt: (() => void)[] = [];
  for (const list of lists.live) {
    const name = list.id === '' ? 'the default list' : `list ${list.id}`;
    const state = await listState(service, list);
    [actual[name], wanted[name]] = state;
    learnt.push(state[2]);
  }
  for (const list of lists.deleted) {
    const name = `deleted list ${list.id}`;
    [actual[name], wanted[name]] = await goneState(service, list);
  }
  expect(actual, `the lists after ${after}`).toEqual(wanted);
  // Only now: a version learnt before the comparison would no longer be new to it.
  for (const learn of learnt) learn();
}

/** What the list's routes answer, what the model wants, and what to learn from them. */
async function listState(
  service: TestService,
  list: ListModel,
): Promise<[actual: object, wanted: object, learn: () => void]> {
  const response = await service.fetch(pathsOf(list.id).todos);
  const etag = response.headers.get('etag');
  const todos: unknown = await response.json();
  const actual: Record<string, unknown> = { status: response.status, todos, etag };
  const wanted: Record<string, unknown> = {
    status: 200,
    todos: list.items.items,
    etag: knownOrNew(list.items, list.items.listEtag),
  };
  const learn = () => {
    if (list.items.listEtag === undefined && etag !== null) list.learnVersion(etag);
  };
  if (list.id === '') return [actual, wanted, learn];
  const titled = await service.fetch(listPathOf(list.id));
  actual.title = {
    status: titled.status,
    list: await titled.json(),
    etag: titled.headers.get('etag'),
  };
  wanted.title = { status: 200, list: list.info, etag: list.titleEtag };
  return [actual, wanted, learn];
}

async function goneState(service: TestService, list: ListModel): Promise<[object, object]> {
  const [titled, items] = [
    await service.fetch(listPathOf(list.id)),
    await service.fetch(pathsOf(list.id).todos),
  ];
  await Promise.all([titled.body?.cancel(), items.body?.cancel()]);
  return [
    { title: titled.status, todos: items.status },
    { title: 404, todos: 404 },
  ];
}
