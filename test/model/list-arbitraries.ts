import fc from 'fast-check';
import { base64UrlOf } from '../../src/lists/list-id.ts';
import { condition, pick, readMethod, weighted } from './arbitrary-parts.ts';
import { anyListSending, goodListSending } from './arbitrary-list-bodies.ts';
import type { ListRequestSpec, ListTarget, NamedTarget } from './list-spec.ts';
import type { ModelLimits } from './model.ts';
import type { Sending } from './spec.ts';

/** An id in the form of a list id made on Node (16 bytes), which no list was made with. */
const neverMade = fc
  .uint8Array({ minLength: 16, maxLength: 16 })
  .map((bytes) => ({ kind: 'never-made' as const, id: base64UrlOf(bytes) }));

/** Not base64url as an encoder writes it; never empty, which would be another route. */
const malformed = fc
  .oneof(
    // Too short, trailing bits set, a space, a word.
    fc.constantFrom('AAAAA', 'AAAAAAAAAAAAAAAAAAAAAB', '%20', 'null', 'not-an-id'),
    fc.stringMatching(/^[a-z0-9_~-]{1,40}$/),
  )
  .map((id) => ({ kind: 'malformed' as const, id }));

/** Ids that name no list: one deleted, one like a list's but in another spelling, and others. */
const namingNone = (
  deleted: number,
  others: number,
): { weight: number; arbitrary: fc.Arbitrary<NamedTarget> }[] => [
  weighted(
    deleted,
    pick.map((index) => ({ kind: 'deleted' as const, pick: index })),
  ),
  weighted(
    others,
    fc.oneof(
      pick.map((index) => ({ kind: 'respelled' as const, pick: index })),
      neverMade,
      malformed,
    ),
  ),
];

/** The list a list command addresses: mostly one that is there. */
const namedTarget: fc.Arbitrary<NamedTarget> = fc.oneof(
  weighted(
    8,
    pick.map((index) => ({ kind: 'named' as const, pick: index })),
  ),
  ...namingNone(1, 1),
);

/** The list an item command addresses: the default list or a named one, sometimes none. */
export const listTarget: fc.Arbitrary<ListTarget> = fc.oneof(
  weighted(3, fc.constant({ kind: 'default' as const })),
  weighted(
    8,
    pick.map((index) => ({ kind: 'named' as const, pick: index })),
  ),
  ...namingNone(1, 1),
);

/**
 * The list commands, each with its weight among all the commands (arbitraries.ts): enough
 * creates that a sequence of 25 commands often holds two or three lists, and reaches
 * `maxLists` now and then, with a rename or two and a delete.
 */
export function listCommandSpecs(
  limits: ModelLimits,
): { weight: number; arbitrary: fc.Arbitrary<ListRequestSpec> }[] {
  const rename = (send: fc.Arbitrary<Sending>) =>
    fc.record({
      op: fc.constant('rename-list' as const),
      list: namedTarget,
      ifMatch: condition,
      send,
    });
  return [
    weighted(
      9,
      fc.record({
        op: fc.constant('create-list' as const),
        send: fc.oneof(weighted(1, fc.constant(null)), weighted(4, goodListSending(limits, false))),
      }),
    ),
    weighted(
      3,
      fc.record({ op: fc.constant('create-list' as const), send: anyListSending(limits) }),
    ),
    weighted(7, rename(goodListSending(limits, true))),
    weighted(2, rename(anyListSending(limits))),
    weighted(
      6,
      fc.record({ op: fc.constant('delete-list' as const), list: namedTarget, ifMatch: condition }),
    ),
    weighted(
      3,
      fc.record({
        op: fc.constant('read-list' as const),
        list: namedTarget,
        method: readMethod,
        ifNoneMatch: condition,
      }),
    ),
    weighted(
      1,
      fc.record({
        op: fc.constant('wrong-method-on-lists' as const),
        method: fc.constantFrom(
          'GET' as const,
          'HEAD' as const,
          'PUT' as const,
          'DELETE' as const,
          'PATCH' as const,
        ),
      }),
    ),
    weighted(
      1,
      fc.record({
        op: fc.constant('wrong-method-on-list' as const),
        list: namedTarget,
        method: fc.constantFrom('POST' as const, 'PATCH' as const),
      }),
    ),
  ];
}
