import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_PATHS, listPageOf, namedListPaths } from '../../src/model/resources.ts';
import { listOfPath } from '../../src/page/api-client.ts';

const ID = 'q3Zk0Ffe1uD2sN7w-x_AbC';

describe('listOfPath', () => {
  it('shows the default list at /', () => {
    expect(listOfPath('/')).toEqual({ id: undefined, paths: DEFAULT_LIST_PATHS });
  });

  it("shows the named list whose page it is, with that list's paths", () => {
    expect(listOfPath(listPageOf(ID))).toEqual({ id: ID, paths: namedListPaths(ID) });
    expect(listOfPath(`${listPageOf(ID)}/`).id).toBe(ID);
  });

  it('shows the default list on a path that names no list page', () => {
    for (const path of ['/lists/', '/lists', `/lists/${ID}/todos`, '/index.html']) {
      expect(listOfPath(path).id).toBeUndefined();
    }
  });
});
