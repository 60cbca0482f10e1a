import fc from 'fast-check';
import type { ModelLimits } from './model.ts';
import { anySending, goodSending } from './arbitrary-bodies.ts';
import { condition, pick, readMethod, slash, weighted } from './arbitrary-parts.ts';
import { listCommandSpecs, listTarget } from './list-arbitraries.ts';
import type { CommandSpec, Sending, Target } from './spec.ts';

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 12, arbitrary: pick.map((index) => ({ kind: 'existing' as const, pick: index })) },
  { weight: 1, arbitrary: pick.map((index) => ({ kind: 'deleted' as const, pick: index })) },
  { weight: 1, arbitrary: pick.map((index) => ({ kind: 'upper-case' as const, pick: index })) },
  { weight: 1, arbitrary: pick.map((index) => ({ kind: 'elsewhere' as const, pick: index })) },
  {
    weight: 1,
    arbitrary: fc.uuid({ version: 4 }).map((id) => ({ kind: 'never-issued' as const, id })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.constantFrom('nope', '0', 'null', '%20'), fc.stringMatching(/^[a-z0-9_~-]{1,40}$/))
      .map((id) => ({ kind: 'not-uuid' as const, id })),
  },
);

/** Every command the test sends, weighted so that lists fill up and items change often. */
export function commandSpec(limits: ModelLimits): fc.Arbitrary<CommandSpec> {
  const list = listTarget;
  const create = (send: fc.Arbitrary<Sending>) =>
    fc.record({ op: fc.constant('create' as const), list, send, slash });
  const replace = (send: fc.Arbitrary<Sending>) =>
    fc.record({
      op: fc.constant('replace' as const),
      list,
      target,
      ifMatch: condition,
      send,
      slash,
    });
  const itemCommands: { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
    weighted(10, create(goodSending(limits, false))),
    weighted(6, create(anySending(limits))),
    weighted(8, replace(goodSending(limits, true))),
    weighted(6, replace(anySending(limits))),
    weighted(
      6,
      fc.record({ op: fc.constant('delete' as const), list, target, ifMatch: condition, slash }),
    ),
    weighted(
      4,
      fc.record({
        op: fc.constant('get' as const),
        list,
        target,
        method: readMethod,
        ifNoneMatch: condition,
        slash,
      }),
    ),
    weighted(
      4,
      fc.record({
        op: fc.constant('list' as const),
        list,
        method: readMethod,
        ifNoneMatch: condition,
        slash,
      }),
    ),
    weighted(
      2,
      fc.record({
        op: fc.constant('wrong-method' as const),
        list,
        method: fc.constantFrom('PUT' as const, 'DELETE' as const, 'PATCH' as const),
      }),
    ),
    weighted(
      2,
      fc.record({
        op: fc.constant('wrong-method-on-item' as const),
        list,
        pick,
        method: fc.constantFrom('POST' as const, 'PATCH' as const),
      }),
    ),
  ];
  const subscribe = fc.record(
    { op: fc.constant('subscribe' as const), list, from: pick },
    { requiredKeys: ['op', 'list'] },
  );
  return fc.oneof(...itemCommands, weighted(3, subscribe), ...listCommandSpecs(limits));
}
