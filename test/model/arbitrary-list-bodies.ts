import fc from 'fast-check';
import {
  BLANKS,
  extras,
  faultySending,
  idField,
  notAString,
  sometimes,
  titleOf,
  wellSent,
} from './arbitrary-bodies.ts';
import type { ModelLimits } from './model.ts';
import type { ObjectBody, Sending } from './spec.ts';

/** A list's title may be empty or blank; only its length is limited. */
function goodListTitles(limits: ModelLimits) {
  return fc.oneof(
    { weight: 4, arbitrary: titleOf(1, limits.maxTitleLength) },
    { weight: 1, arbitrary: titleOf(limits.maxTitleLength, limits.maxTitleLength) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...BLANKS), maxLength: 3 }) },
  );
}

/** A body a create (`forRename` false) or a rename accepts: a rename may repeat the path id. */
export function goodListSending(limits: ModelLimits, forRename: boolean): fc.Arbitrary<Sending> {
  const body: fc.Arbitrary<ObjectBody> = fc.record({
    kind: fc.constant('object' as const),
    title: forRename ? goodListTitles(limits) : sometimes(goodListTitles(limits), 4, 1),
    completed: fc.constant(undefined),
    id: forRename
      ? sometimes(fc.constant({ kind: 'path-id' as const }), 1, 4)
      : fc.constant(undefined),
    extras: fc.constant([]),
    truncated: fc.constant(false),
  });
  return wellSent(body);
}

/** Any body for a list: a to-do's `completed` is one more key a list does not have. */
export function anyListSending(limits: ModelLimits): fc.Arbitrary<Sending> {
  const title = fc.oneof(
    { weight: 4, arbitrary: goodListTitles(limits) },
    { weight: 2, arbitrary: titleOf(limits.maxTitleLength + 1, limits.maxTitleLength + 1) },
    { weight: 1, arbitrary: notAString },
  );
  const object: fc.Arbitrary<ObjectBody> = fc.record({
    kind: fc.constant('object' as const),
    title: sometimes(title, 5, 1),
    completed: sometimes(fc.boolean(), 1, 5),
    id: sometimes(idField, 1, 4),
    extras: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, extras),
    truncated: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, fc.constant(true)),
  });
  return faultySending(object);
}
