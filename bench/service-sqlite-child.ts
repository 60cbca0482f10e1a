import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childMaxItems, serveParent } from './child-ipc.ts';
import { startNodeHost } from './node-host.ts';

// A fresh database for every run, on the machine's temporary disk, gone when the child is.
const folder = mkdtempSync(join(tmpdir(), 'todo-bench-sqlite-'));
process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
serveParent(await startNodeHost(childMaxItems(), join(folder, 'todos.sqlite')));
