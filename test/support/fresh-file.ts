import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A path for a new SQLite file, in a folder of its own that is removed when the test ends. */
export function freshFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'todo-store-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return join(folder, 'todos.sqlite');
}
