import type { ListTarget } from './list-spec.ts';
import type { Regression } from './regressions.ts';
import type { CommandSpec, Sending } from './spec.ts';

/**
 * Sequences over several lists, each found as regressions.ts says: by breaking the service on
 * purpose (here, by a host that alters its answers or streams), as the comment says.
 */

const json = (body: Record<string, string | boolean>): Sending => ({
  body: {
    kind: 'object',
    title: body.title,
    completed: body.completed,
    extras: [],
    truncated: false,
  },
  mediaType: 'application/json',
  size: 'as-is',
  chunked: false,
});
const list: ListTarget = { kind: 'named', pick: 0 };
const gone: ListTarget = { kind: 'deleted', pick: 0 };
const createList = (title?: string): CommandSpec => ({
  op: 'create-list',
  send: title === undefined ? null : json({ title }),
});
const renameList = (title: string): CommandSpec => ({
  op: 'rename-list',
  list,
  ifMatch: 'none',
  send: json({ title }),
});
const deleteList: CommandSpec = { op: 'delete-list', list, ifMatch: 'none' };
const createOn = (on: ListTarget): CommandSpec => ({
  op: 'create',
  list: on,
  send: json({ title: '!', completed: false }),
  slash: false,
});

export const LIST_REGRESSIONS: readonly Regression[] = [
  // A create's body sent on without its title.
  {
    name: 'makes a list with the title sent, or untitled without a body',
    aspect: 'answers',
    commands: [createList('🐈 '), createList(), createList('')],
  },
  // Found by fuzzing the SQLite hosts: a title stored as SQLite text, whose UTF-8 cannot hold a
  // lone surrogate, came back as U+FFFD.
  {
    name: 'keeps a list title and an item title with a lone surrogate exactly as sent',
    aspect: 'list',
    commands: [
      createList('\ud800'),
      {
        op: 'create',
        list,
        send: json({ title: '\udc00 !', completed: false }),
        slash: false,
      },
    ],
  },
  // Past limits.maxLists, a list made all the same (where the host bounds them).
  {
    name: 'answers the list create past limits.maxLists with 507, and takes one after a delete',
    aspect: 'answers',
    commands: [...Array.from({ length: 4 }, () => createList('!')), deleteList, createList('!')],
  },
  // A rename answered with an ETag the list had already shown.
  {
    name: 'answers a rename with a new version, which the list and its items then carry',
    aspect: 'list',
    commands: [createList('a'), createOn(list), renameList('b')],
  },
  // A named list's items created in the default list.
  {
    name: 'keeps each list’s items to itself',
    aspect: 'list',
    commands: [createList(), createOn(list), createOn({ kind: 'default' })],
  },
  // A deleted list answered 204 but kept.
  {
    name: 'answers 404 on every route of a deleted list, its items too',
    aspect: 'list',
    commands: [createList('a'), createOn(list), deleteList],
  },
  // The same, item by item: an item of a deleted list still found.
  {
    name: 'answers 404 to an item command on a deleted list',
    aspect: 'answers',
    commands: [
      createList('a'),
      createOn(list),
      deleteList,
      {
        op: 'get',
        list: gone,
        target: { kind: 'existing', pick: 0 },
        method: 'GET',
        ifNoneMatch: 'none',
        slash: false,
      },
      { op: 'subscribe', list: gone },
      { op: 'read-list', list: gone, method: 'GET', ifNoneMatch: 'none' },
    ],
  },
  // list-deleted dropped, or sent with an id.
  {
    name: 'ends a deleted list’s stream with list-deleted, without an id, after its last change',
    aspect: 'events',
    commands: [createList('a'), { op: 'subscribe', list }, createOn(list), deleteList],
  },
  // list-renamed sent with the old title; a stream that resumes sent a snapshot instead.
  {
    name: 'streams a rename with its title, and replays it to a stream that resumes',
    aspect: 'events',
    commands: [
      createList('a'),
      { op: 'subscribe', list },
      renameList('b'),
      { op: 'subscribe', list, from: 0 },
      createOn(list),
    ],
  },
  // A change of one list told on another's stream.
  {
    name: 'streams a list’s changes on its own streams only',
    aspect: 'events',
    commands: [
      createList('a'),
      createList('b'),
      { op: 'subscribe', list },
      createOn({ kind: 'named', pick: 1 }),
    ],
  },
];
