import { expect } from 'vitest';
import type { TodoModel } from './model.ts';

const QUOTED = /^"[^"]*"$/;

/** A quoted ETag, whatever it holds: a new list's first version, unrelated to any other list's. */
export function anyEtag() {
  return expect.toSatisfy(
    (etag: unknown) => typeof etag === 'string' && QUOTED.test(etag),
    'a quoted ETag',
  );
}

/**
 * Every change makes a version of its own (README, Layout), which is the changed item's ETag,
 * or the renamed title's: new among the versions of its list.
 */
export function newVersion(model: TodoModel) {
  return expect.toSatisfy(
    (etag: unknown) => typeof etag === 'string' && QUOTED.test(etag) && !model.versions.has(etag),
    'a quoted ETag never shown before',
  );
}

/** The ETag the model knows; where it cannot (the list after a delete), a new one. */
export function knownOrNew(model: TodoModel, etag: string | undefined) {
  return etag ?? newVersion(model);
}
