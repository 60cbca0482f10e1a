import { describe, expect, it } from 'vitest';
import { ListTitle } from '../../src/page/list-title.ts';

describe('ListTitle', () => {
  it('takes the first title it hears, however it came', () => {
    const title = new ListTitle();
    expect(title.title).toBeUndefined();
    expect(title.accept('Groceries', 'r.0')).toBe(true);
    expect(title.title).toBe('Groceries');
  });

  it('keeps a renamed title when a read answers with an older version', () => {
    const title = new ListTitle();
    title.accept('Renamed', 'r.7');
    expect(title.accept('As read', 'r.3')).toBe(false);
    expect(title.title).toBe('Renamed');
  });

  it('takes a rename later than the title read', () => {
    const title = new ListTitle();
    title.accept('As read', 'r.3');
    expect(title.accept('Renamed', 'r.12')).toBe(true);
    expect(title.title).toBe('Renamed');
  });

  it('changes nothing for the version it holds, as when a rename and its event both arrive', () => {
    const title = new ListTitle();
    title.accept('Renamed', 'r.7');
    expect(title.accept('Renamed', 'r.7')).toBe(false);
  });

  it('takes the title of another run, or of a version it cannot place', () => {
    const title = new ListTitle();
    title.accept('Old run', 'old.40');
    expect(title.accept('New run', 'new.2')).toBe(true);
    expect(title.accept('Unplaced', 'not a version')).toBe(true);
    expect(title.title).toBe('Unplaced');
  });
});
