import { describe, it } from 'vitest';
import { LIST_REGRESSIONS } from './list-regressions.ts';
import type { TestHost } from '../support/hosts.ts';
import { ModelCommand, runSequence, type Aspect } from './runner.ts';
import type { CommandSpec, Condition, Sending, Target } from './spec.ts';

/**
 * Shrunk counterexamples, kept so that each edge they found is checked on every run whatever
 * the seed. Each was found by breaking the service (or the model) on purpose, as the comment
 * says, and runs with the test that caught it.
 */
export interface Regression {
  readonly name: string;
  readonly aspect: Aspect;
  readonly commands: readonly CommandSpec[];
}

const json = (title: string, completed?: boolean): Sending => ({
  body: { kind: 'object', title, completed, extras: [], truncated: false },
  mediaType: 'application/json',
  size: 'as-is',
  chunked: false,
});
const create = (send: Sending): CommandSpec => ({ op: 'create', send, slash: false });
const first: Target = { kind: 'existing', pick: 0 };
const replace = (send: Sending, ifMatch: Condition = 'none'): CommandSpec => ({
  op: 'replace',
  target: first,
  ifMatch,
  send,
  slash: false,
});
const remove: CommandSpec = { op: 'delete', target: first, ifMatch: 'none', slash: false };

const REGRESSIONS: readonly Regression[] = [
  // Location in upper case.
  {
    name: 'answers a create with the new item, Location and ETag',
    aspect: 'answers',
    commands: [create(json('!'))],
  },
  // Capacity checked with > instead of >=.
  {
    name: 'answers the create past limits.maxItems with 507, and takes one after a delete',
    aspect: 'answers',
    commands: [...Array.from({ length: 6 }, () => create(json('!'))), remove, create(json('!'))],
  },
  // A body refused when it is exactly limits.maxBodyBytes long.
  {
    name: 'accepts a body of exactly limits.maxBodyBytes, and refuses one byte more',
    aspect: 'answers',
    commands: [
      create({ ...json('!', false), size: 'at-limit' }),
      create({ ...json('!', false), size: 'over-limit', chunked: true }),
    ],
  },
  // If-Match checked only after the body was read; weak tags compared weakly.
  {
    name: 'refuses a weak If-Match with 412 before looking at the body',
    aspect: 'answers',
    commands: [
      create(json('!', false)),
      replace(
        { ...json('!'), body: { kind: 'object', extras: [], truncated: false } },
        'weak-current',
      ),
    ],
  },
  // Titles measured in UTF-16 units.
  {
    name: 'measures a title in code points, astral characters included',
    aspect: 'answers',
    commands: [create(json('🐈'.repeat(12))), create(json('🐈'.repeat(13)))],
  },
  // completed defaulted on PUT as on POST.
  {
    name: 'requires completed on a replace, which may repeat the path id',
    aspect: 'answers',
    commands: [
      create(json('!', false)),
      replace(
        {
          ...json('!'),
          body: {
            kind: 'object',
            title: '!',
            id: { kind: 'path-id' },
            extras: [],
            truncated: false,
          },
        },
        'current',
      ),
    ],
  },
  // The list's JSON cached until the item count changed.
  {
    name: 'lists a replaced item as replaced',
    aspect: 'list',
    commands: [create(json('!', false)), replace(json('!', true))],
  },
  // Replacing deleted the item first, which moved it to the end.
  {
    name: 'keeps a replaced item in its place in the list',
    aspect: 'list',
    commands: [create(json('!', false)), create(json('! ', false)), replace(json('!', false))],
  },
  // The store announced no update.
  {
    name: 'streams every kind of change',
    aspect: 'events',
    commands: [create(json('!', false)), replace(json('!', false)), remove],
  },
  // The snapshot written in reverse order.
  {
    name: 'opens a later stream with a snapshot of the list as it is',
    aspect: 'events',
    commands: [
      create(json('!', false)),
      create(json('!')),
      { op: 'subscribe' },
      create(json('!', false)),
    ],
  },
  // Only the first stream subscribed to the store.
  {
    name: 'streams a change to every open stream',
    aspect: 'events',
    commands: [{ op: 'subscribe' }, create(json('!', false))],
  },
  // A deleted event sent twice.
  {
    name: 'streams one event per change',
    aspect: 'events',
    commands: [create(json('!', false)), remove],
  },
];

export function modelRegressionSuite(host: TestHost): void {
  describe('sequences kept from shrunk failures', () => {
    it.each([...REGRESSIONS, ...LIST_REGRESSIONS])('$name', ({ aspect, commands }) =>
      runSequence(
        host,
        aspect,
        commands.map((spec) => new ModelCommand(spec)),
      ),
    );
  });
}
