import { afterAll } from 'vitest';
import { stopWorkerd, workerd } from '../support/workerd-host.ts';
import { withConcurrentWriters } from '../support/concurrent-writers.ts';
import { inProcessHost, nodeHost, withSqlite } from '../support/hosts.ts';
import { modelBasedSuite } from './suite.ts';

modelBasedSuite(inProcessHost, { test: 30, fuzz: 4000 });
// Each run starts a server and talks HTTP to it: fewer runs keep `npm test` quick.
modelBasedSuite(nodeHost, { test: 25, fuzz: 1000 });
// The same model against the list kept in SQLite: it must not tell the two stores apart.
modelBasedSuite(withSqlite(inProcessHost), { test: 15, fuzz: 1000 });
modelBasedSuite(withSqlite(nodeHost), { test: 10, fuzz: 500 });
// And with other clients writing all along, so that its changes share commits with theirs.
modelBasedSuite(withConcurrentWriters(withSqlite(nodeHost)), { test: 6, fuzz: 300 });
// And on workerd, the object keeping the list in its SQLite storage: few runs, each is slow.
modelBasedSuite(workerd, { test: 4, fuzz: 100 });
afterAll(stopWorkerd);
