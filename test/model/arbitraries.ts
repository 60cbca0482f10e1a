import fc from 'fast-check';
import type { ModelLimits } from './model.ts';
import { anySending, goodSending } from './arbitrary-bodies.ts';
import type { CommandSpec, Condition, Sending, Target } from './spec.ts';

const pick = fc.nat({ max: 9 });

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 12, arbitrary: pick.map((index) => ({ kind: 'existing' as const, pick: index })) },
  { weight: 1, arbitrary: pick.map((index) => ({ kind: 'deleted' as const, pick: index })) },
  { weight: 1, arbitrary: pick.map((index) => ({ kind: 'upper-case' as const, pick: index })) },
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

const condition: fc.Arbitrary<Condition> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('none' as const) },
  { weight: 2, arbitrary: fc.constant('current' as const) },
  { weight: 2, arbitrary: fc.constant('stale' as const) },
  fc.constantFrom('star' as const, 'weak-current' as const, 'among-others' as const),
);

const slash = fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true));
const readMethod = fc.oneof(
  { weight: 4, arbitrary: fc.constant('GET' as const) },
  fc.constant('HEAD' as const),
);

/** Every command the test sends, weighted so that lists fill up and items change often. */
export function commandSpec(limits: ModelLimits): fc.Arbitrary<CommandSpec> {
  const create = (send: fc.Arbitrary<Sending>) =>
    fc.record({ op: fc.constant('create' as const), send, slash });
  const replace = (send: fc.Arbitrary<Sending>) =>
    fc.record({ op: fc.constant('replace' as const), target, ifMatch: condition, send, slash });
  const weighted = (weight: number, arbitrary: fc.Arbitrary<CommandSpec>) => ({
    weight,
    arbitrary,
  });
  return fc.oneof(
    weighted(5, create(goodSending(limits, false))),
    weighted(3, create(anySending(limits))),
    weighted(4, replace(goodSending(limits, true))),
    weighted(3, replace(anySending(limits))),
    weighted(
      3,
      fc.record({ op: fc.constant('delete' as const), target, ifMatch: condition, slash }),
    ),
    weighted(
      2,
      fc.record({
        op: fc.constant('get' as const),
        target,
        method: readMethod,
        ifNoneMatch: condition,
        slash,
      }),
    ),
    weighted(
      2,
      fc.record({
        op: fc.constant('list' as const),
        method: readMethod,
        ifNoneMatch: condition,
        slash,
      }),
    ),
    weighted(
      1,
      fc.record({
        op: fc.constant('wrong-method' as const),
        method: fc.constantFrom('PUT' as const, 'DELETE' as const, 'PATCH' as const),
      }),
    ),
    weighted(1, fc.constant({ op: 'subscribe' as const })),
    weighted(
      1,
      fc.record({
        op: fc.constant('wrong-method-on-item' as const),
        pick,
        method: fc.constantFrom('POST' as const, 'PATCH' as const),
      }),
    ),
  );
}
