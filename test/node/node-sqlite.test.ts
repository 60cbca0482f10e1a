import { describe, expect, it, onTestFinished } from 'vitest';
import { nodeSqlite, withoutWarning } from '../../src/hosts/node/node-sqlite.ts';

/** The messages of the process warnings emitted from now on, kept here instead of printed. */
function warnings(): string[] {
  const seen: string[] = [];
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error) =>
    void seen.push(typeof warning === 'string' ? warning : warning.message)) as typeof emitWarning;
  onTestFinished(() => void (process.emitWarning = emitWarning));
  return seen;
}

describe('loading node:sqlite', () => {
  it('gives the module that opens a database', () => {
    const db = new (nodeSqlite().DatabaseSync)(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 });
    db.close();
  });

  it('drops the warning it names while the work runs', () => {
    const seen = warnings();
    withoutWarning(/^SQLite is experimental/, () =>
      process.emitWarning('SQLite is experimental', 'ExperimentalWarning'),
    );
    expect(seen).toEqual([]);
  });

  it('lets every other warning of the work through', () => {
    const seen = warnings();
    withoutWarning(/^SQLite is experimental/, () => process.emitWarning('Something else'));
    expect(seen).toEqual(['Something else']);
  });

  it('lets the warning it names through once the work is done', () => {
    const seen = warnings();
    withoutWarning(/^SQLite is experimental/, () => {});
    process.emitWarning('SQLite is experimental');
    expect(seen).toEqual(['SQLite is experimental']);
  });
});
