import fc from 'fast-check';
import type { Condition } from './spec.ts';

/** An index into what the model holds, taken modulo its length when the command runs. */
export const pick = fc.nat({ max: 9 });

export const condition: fc.Arbitrary<Condition> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('none' as const) },
  { weight: 2, arbitrary: fc.constant('current' as const) },
  { weight: 2, arbitrary: fc.constant('stale' as const) },
  fc.constantFrom('star' as const, 'weak-current' as const, 'among-others' as const),
);

export const slash = fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true));

export const readMethod = fc.oneof(
  { weight: 4, arbitrary: fc.constant('GET' as const) },
  fc.constant('HEAD' as const),
);

/** An arbitrary with its weight, for `fc.oneof`. */
export const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
