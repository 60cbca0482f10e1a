import { randomUUID } from 'node:crypto';
import { COLLECTION, itemPath, JSON_HEADERS, type Call, type Owned } from './api-calls.ts';
import { between } from './random.ts';

const post = (headers: Readonly<Record<string, string>>, body: string) => ({
  method: 'POST',
  path: COLLECTION,
  headers,
  body,
});

/**
 * A request a client gets wrong, each with the one status docs/api.md gives it. A stale
 * If-Match needs an item of the caller's own, so it is only made when there is one.
 */
export function mistake(owned: Owned | undefined, run: string): Call {
  switch (between(0, owned === undefined ? 3 : 4)) {
    case 0:
      return { kind: 'bad JSON', ask: post(JSON_HEADERS, '{"title": "unfinished'), expect: [400] };
    case 1: {
      const fields =
        Math.random() < 0.5 ? { title: '   ' } : { title: 'x', completed: 'yes', owner: 'me' };
      return {
        kind: 'invalid fields',
        ask: post(JSON_HEADERS, JSON.stringify(fields)),
        expect: [400],
      };
    }
    case 2: {
      const ask = post({ 'content-type': 'text/plain' }, '{"title":"x"}');
      return { kind: 'wrong media type', ask, expect: [415] };
    }
    case 3: {
      const method = (['GET', 'PUT', 'DELETE'] as const)[between(0, 2)]!;
      const body = method === 'PUT' ? JSON.stringify({ title: 'x', completed: false }) : undefined;
      const ask = { method, path: itemPath(randomUUID()), headers: body ? JSON_HEADERS : {}, body };
      return { kind: 'unknown id', ask, expect: [404] };
    }
    default: {
      // An ETag the item really had, or one of this run that no item ever has.
      const stale = owned!.stale ?? `"${run}.0"`;
      const body = JSON.stringify({ title: 'lost update', completed: true });
      const headers = { ...JSON_HEADERS, 'if-match': stale };
      const ask = { method: 'PUT', path: itemPath(owned!.id), headers, body };
      return { kind: 'stale If-Match', ask, expect: [412] };
    }
  }
}
