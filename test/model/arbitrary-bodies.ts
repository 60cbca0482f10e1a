import fc from 'fast-check';
import type { ModelLimits } from './model.ts';
import type { BodySpec, IdField, JsonValue, ObjectBody, Sending } from './spec.ts';

/** Whitespace of several kinds: a title of nothing else is refused. */
export const BLANKS = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff'];

/**
 * One code point per unit, so a title's length in units is its length in code points: the
 * edges of the title limit then fall where the generator puts them. Astral characters take
 * two UTF-16 units, a lone surrogate one; JSON escapes make some characters six bytes long.
 */
const titleCharacter = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(...BLANKS) },
  { weight: 2, arbitrary: fc.constantFrom('🐈', 'é', '"', '\\', '\u0000', '\u001f', '\ud800') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

export const titleOf = (minLength: number, maxLength: number) =>
  fc.string({ unit: titleCharacter, minLength, maxLength });

const hasText = (title: string) => title.trim() !== '';

/** Titles the contract accepts, the longest allowed among them. */
function goodTitles(limits: ModelLimits) {
  return fc
    .oneof(
      { weight: 4, arbitrary: titleOf(1, limits.maxTitleLength) },
      { weight: 1, arbitrary: titleOf(limits.maxTitleLength, limits.maxTitleLength) },
    )
    .filter(hasText);
}

/** Any title, with the edges around the limit and blank ones well represented. */
function anyTitles(limits: ModelLimits) {
  return fc.oneof(
    { weight: 4, arbitrary: titleOf(1, limits.maxTitleLength) },
    { weight: 1, arbitrary: titleOf(limits.maxTitleLength, limits.maxTitleLength) },
    { weight: 2, arbitrary: titleOf(limits.maxTitleLength + 1, limits.maxTitleLength + 1) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...BLANKS), maxLength: 3 }) },
  );
}

export const notAString: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant<JsonValue>([]),
  fc.constant<JsonValue>({}),
);
const notABoolean = fc.constantFrom<JsonValue>('true', 'false', 0, 1, null, []);

const extraKey = fc.oneof(
  fc.constantFrom('done', 'Title', 'ID', '__proto__', 'constructor', 'toString', 'a/b~c', ''),
  fc.string({ maxLength: 6 }).filter((key) => !['title', 'completed', 'id'].includes(key)),
);
export const extras = fc.uniqueArray(fc.tuple(extraKey, fc.jsonValue({ maxDepth: 1 })), {
  minLength: 1,
  maxLength: 2,
  selector: ([key]) => key,
});

export const idField: fc.Arbitrary<IdField> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'path-id' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'path-id-upper-case' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.uuid({ version: 4 }), notAString)
      .map((value) => ({ kind: 'value' as const, value })),
  },
);

/** `undefined` leaves the key out of the body; the weights are of present and absent. */
export const sometimes = <T>(arbitrary: fc.Arbitrary<T>, present: number, absent: number) =>
  fc.oneof({ weight: present, arbitrary }, { weight: absent, arbitrary: fc.constant(undefined) });

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON'];
const OTHER_TYPES = ['text/plain', 'application/jsonp', 'application/x-www-form-urlencoded'];

/** A body the contract accepts; `forPut` makes completed required and lets the id be repeated. */
export function goodSending(limits: ModelLimits, forPut: boolean): fc.Arbitrary<Sending> {
  const body: fc.Arbitrary<ObjectBody> = fc.record({
    kind: fc.constant('object' as const),
    title: goodTitles(limits),
    completed: forPut ? fc.boolean() : sometimes(fc.boolean(), 2, 1),
    id: forPut
      ? sometimes(fc.constant({ kind: 'path-id' as const }), 1, 4)
      : fc.constant(undefined),
    extras: fc.constant([]),
    truncated: fc.constant(false),
  });
  return wellSent(body);
}

/** `body` sent as the contract wants: as JSON, within the byte limit. */
export function wellSent(body: fc.Arbitrary<ObjectBody>): fc.Arbitrary<Sending> {
  return fc.record({
    body,
    mediaType: fc.constantFrom(...JSON_TYPES),
    size: fc.constantFrom('as-is' as const, 'as-is' as const, 'at-limit' as const),
    chunked: fc.boolean(),
  });
}

/** Any body at all: each part may be what the contract wants, or one of its faults. */
export function anySending(limits: ModelLimits): fc.Arbitrary<Sending> {
  const object: fc.Arbitrary<ObjectBody> = fc.record({
    kind: fc.constant('object' as const),
    title: sometimes(
      fc.oneof({ weight: 6, arbitrary: anyTitles(limits) }, { weight: 1, arbitrary: notAString }),
      7,
      1,
    ),
    completed: sometimes(
      fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: notABoolean }),
      3,
      1,
    ),
    id: sometimes(idField, 1, 5),
    extras: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, extras),
    truncated: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, fc.constant(true)),
  });
  return faultySending(object);
}

/**
 * `object` among bodies that are no object at all, sent as any media type and at any size:
 * what every request with a body may get.
 */
export function faultySending(object: fc.Arbitrary<ObjectBody>): fc.Arbitrary<Sending> {
  const body: fc.Arbitrary<BodySpec> = fc.oneof(
    { weight: 12, arbitrary: object },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('', '  ', '[]', '[{"title":"a"}]', 'null', '42', '"a"', '{', "{'title':'a'}")
        .map((text) => ({ kind: 'text' as const, text })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'invalid-utf8' as const }) },
  );
  return fc.record({
    body,
    mediaType: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES) },
      { weight: 1, arbitrary: fc.constantFrom<string | null>(null, ...OTHER_TYPES) },
    ),
    size: fc.constantFrom(
      'as-is' as const,
      'as-is' as const,
      'at-limit' as const,
      'over-limit' as const,
    ),
    chunked: fc.boolean(),
  });
}
